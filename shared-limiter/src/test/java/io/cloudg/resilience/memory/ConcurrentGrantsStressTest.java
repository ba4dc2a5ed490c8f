package io.cloudg.resilience.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.resilience.time.TimeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Many threads take tokens from one leaf while the manual clock moves under them. Whatever the
 * interleaving, the grants (the moment each caller may send: the store's "now" plus the wait it was told)
 * must never exceed {@code rate x window + burst} in any window, and must not starve either.
 */
class ConcurrentGrantsStressTest {
    static final double RATE = 20;
    static final double BURST = 100;
    static final int THREADS = 16;
    static final int CALLS_PER_THREAD = 2_000;

    /** Remembers, per thread, the time the store last read, so each grant is known exactly. */
    static final class RecordingTime implements TimeSource {
        final ManualTimeSource clock = new ManualTimeSource();
        final ThreadLocal<long[]> lastRead = ThreadLocal.withInitial(() -> new long[1]);

        @Override
        public long nanoTime() {
            long t = clock.nanoTime();
            lastRead.get()[0] = t;
            return t;
        }

        @Override
        public long epochMillis() {
            return clock.epochMillis();
        }

        @Override
        public void sleep(long nanos) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> delay(long nanos) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void grantsInAnyWindowNeverExceedRateTimesWindowPlusBurst() throws Exception {
        RecordingTime time = new RecordingTime();
        InMemoryStateStore store = new InMemoryStateStore(time);
        Scope leaf = Scope.of("aws", "1", "us-east-1", "ec2", "DescribeImageAttribute");
        AdmitRequest req = new AdmitRequest("aws", null, leaf.accountScope(), null, leaf,
                new LeafLimit(RATE, BURST, 0.2, true), new BreakerLimit(5, 60_000_000_000L, 600_000_000_000L, 30_000_000_000L),
                null, 1);
        List<Long> grants = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                List<Long> mine = new ArrayList<>(CALLS_PER_THREAD);
                for (int i = 0; i < CALLS_PER_THREAD; i++) {
                    Admission a = store.admit(req);
                    mine.add(time.lastRead.get()[0] + a.waitNanos());
                    // time moves with the callers (0.1 ms per call, 3.2 s in all), never on its own: demand
                    // stays far ahead of supply however the threads are scheduled, so the grants must be
                    // back to back
                    time.clock.advanceNanos(100_000);
                }
                grants.addAll(mine);
            });
            callers.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : callers) {
            th.join();
        }

        List<Long> sorted = new ArrayList<>(grants);
        Collections.sort(sorted);
        int n = sorted.size();
        assertThat(n).isEqualTo(THREADS * CALLS_PER_THREAD);
        for (long windowMs : new long[] {0, 1, 50, 1_000, 5_000, 60_000, 3_600_000}) {
            long w = windowMs * 1_000_000L;
            int j = 0;
            int worst = 0;
            for (int i = 0; i < n; i++) {
                while (sorted.get(i) - sorted.get(j) > w) {
                    j++;
                }
                worst = Math.max(worst, i - j + 1);
            }
            double bound = RATE * (w / 1e9) + BURST;
            assertThat((double) worst).as("grants within %d ms", windowMs).isLessThanOrEqualTo(bound + 1e-6);
        }
        // and no starvation: the last grant is where a perfect limiter would put it
        double span = (sorted.get(n - 1) - sorted.get(0)) / 1e9;
        double ideal = (n - BURST) / RATE;
        assertThat(span).isBetween(ideal - 1.0, ideal + 1.0);
    }
}
