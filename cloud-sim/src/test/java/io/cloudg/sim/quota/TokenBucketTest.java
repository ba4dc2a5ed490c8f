package io.cloudg.sim.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.core.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Token buckets on fake time, through the {@link QuotaBook} that owns them. */
class TokenBucketTest {
    private static final long SECOND = 1_000_000_000L;

    /** One bucket of a quota book, called with the same scope each time. */
    static final class OneBucket {
        private final QuotaBook book;
        private final BucketRef ref;
        private final CallScope scope = new CallScope(Provider.AWS, "111111111111", "us-east-1", "ec2", "DescribeVpcs");

        OneBucket(Quota quota, double share, ManualClock clock, boolean enforcing) {
            this(quota, Neighbour.steady(share), clock, enforcing);
        }

        OneBucket(Quota quota, Neighbour neighbour, ManualClock clock, boolean enforcing) {
            this.book = new QuotaBook(clock, enforcing, s -> neighbour, 7);
            this.ref = new BucketRef("k", quota);
        }

        Admission tryAcquire() {
            return book.acquire(ref, scope);
        }

        BucketStats snapshot() {
            return book.snapshot().get(0);
        }
    }

    @Test
    void anIdleBucketAdmitsItsBurstThenRefillsAtTheRate() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(20, 100), 0, clock, true);
        for (int i = 0; i < 100; i++) {
            assertThat(b.tryAcquire().admitted()).as("call %d", i).isTrue();
        }
        Admission refused = b.tryAcquire();
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfterNanos()).isEqualTo(SECOND / 20);
        clock.advanceNanos(refused.retryAfterNanos() - 1);
        assertThat(b.tryAcquire().admitted()).isFalse();
        clock.advanceNanos(1);
        assertThat(b.tryAcquire().admitted()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        int admitted = 0;
        while (b.tryAcquire().admitted()) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(20);
        BucketStats s = b.snapshot();
        assertThat(s.admitted()).isEqualTo(121);
        assertThat(s.throttled()).isEqualTo(3);
        assertThat(s.calls()).isEqualTo(124);
    }

    /**
     * Whatever the arrival pattern, no window of length T admits more than rate * T + burst, and the
     * reported 1-second maximum is exactly the brute-force maximum over admitted timestamps.
     */
    @ParameterizedTest
    @CsvSource({"20,100,0,1", "5,5,0,2", "0.25,15,0,3", "25,250,0.5,4", "100,1,0,5", "3,15,0.2,6"})
    void noWindowAdmitsMoreThanRateTimesWindowPlusBurst(double rate, double burst, double share, long seed) {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(rate, burst), share, clock, true);
        SplittableRandom r = new SplittableRandom(seed);
        List<Long> admitted = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            // bursts of back-to-back calls separated by random gaps, heavier than the rate
            long gap = r.nextInt(10) == 0 ? (long) (r.nextDouble() * 3 * SECOND) : (long) (r.nextDouble() * SECOND / (rate * 4));
            clock.advanceNanos(gap);
            if (b.tryAcquire().admitted()) {
                admitted.add(clock.nanoTime());
            }
        }
        assertThat(admitted.size()).isGreaterThan((int) Math.min(burst, 20));
        for (long window : new long[] {SECOND / 2, SECOND, 3 * SECOND, 10 * SECOND}) {
            int max = maxInWindow(admitted, window);
            double bound = rate * (1 - share) * window / (double) SECOND + burst;
            assertThat((double) max).as("window %d ns", window).isLessThanOrEqualTo(bound + 1e-9);
        }
        BucketStats s = b.snapshot();
        assertThat(s.maxAdmittedPerSecond()).isEqualTo(maxInWindow(admitted, SECOND));
        assertThat((double) s.maxAdmittedPerSecond()).isLessThanOrEqualTo(rate + burst);
        assertThat(s.admitted()).isEqualTo(admitted.size());
    }

    @Test
    void concurrentCallersNeverGetMoreThanTheRefillPlusTheBurst() throws Exception {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(50, 20), 0, clock, true);
        int threads = 8;
        java.util.concurrent.atomic.AtomicInteger admitted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    if (b.tryAcquire().admitted()) {
                        admitted.incrementAndGet();
                    }
                }
            });
            t.start();
            callers.add(t);
        }
        for (int step = 0; step < 2_000; step++) {
            clock.advance(Duration.ofMillis(1));
            Thread.onSpinWait();
        }
        running.set(false);
        for (Thread t : callers) {
            t.join();
        }
        // 2 s of fake time at 50/s plus the burst of 20
        assertThat(admitted.get()).isLessThanOrEqualTo(120);
        assertThat(b.snapshot().admitted()).isEqualTo(admitted.get());
        assertThat((double) b.snapshot().maxAdmittedPerSecond()).isLessThanOrEqualTo(70.0);
    }

    @Test
    void aNoisyNeighbourTakesItsShareOfTheRefill() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(10, 1), 0.5, clock, true);
        assertThat(b.tryAcquire().admitted()).isTrue();
        int admitted = 0;
        for (int i = 0; i < 1000; i++) {
            clock.advance(Duration.ofMillis(10));
            if (b.tryAcquire().admitted()) {
                admitted++;
            }
        }
        // 10 s at 10/s with half taken by the neighbour: 50 (one fewer at the boundary is fine)
        assertThat(admitted).isBetween(49, 50);
        assertThat(b.snapshot().neighbourTokens()).isBetween(49.0, 50.0);
    }

    @Test
    void withQuotasOffEveryCallIsCountedAndNoneRefused() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(1, 1), 0, clock, false);
        for (int i = 0; i < 50; i++) {
            assertThat(b.tryAcquire().admitted()).isTrue();
        }
        assertThat(b.snapshot().calls()).isEqualTo(50);
        assertThat(b.snapshot().throttled()).isZero();
        assertThat(b.snapshot().maxAdmittedPerSecond()).isEqualTo(50);
    }

    @Test
    void perMinuteQuotasAreBucketsHoldingTheMinute() {
        Limit l = Limit.perMinute(100);
        assertThat(l.burst()).isEqualTo(100);
        assertThat(l.rate()).isEqualTo(100 / 60.0);
    }

    private static int maxInWindow(List<Long> ts, long window) {
        int max = 0;
        int lo = 0;
        for (int hi = 0; hi < ts.size(); hi++) {
            while (ts.get(hi) - ts.get(lo) >= window) {
                lo++;
            }
            max = Math.max(max, hi - lo + 1);
        }
        return max;
    }
}
