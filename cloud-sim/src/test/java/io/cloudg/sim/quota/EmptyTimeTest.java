package io.cloudg.sim.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.quota.TokenBucketTest.OneBucket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long a bucket stayed empty (would have refused a call), on fake time. */
class EmptyTimeTest {
    private static final double NANO = 1e-9;

    @Test
    void aBucketIsEmptyFromItsLastTokenUntilTheRefillBringsOneBack() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(10, 2), 0, clock, true);
        assertThat(b.tryAcquire().admitted()).isTrue();
        assertThat(b.snapshot().emptySeconds()).isZero();
        assertThat(b.tryAcquire().admitted()).isTrue(); // the last token: empty for 0.1 s (10/s)
        clock.advance(Duration.ofMillis(40));
        assertThat(b.snapshot().emptySeconds()).as("counted up to the snapshot").isCloseTo(0.04, within(NANO));
        assertThat(b.tryAcquire().admitted()).isFalse(); // a refusal inside the stretch changes nothing
        clock.advance(Duration.ofSeconds(1));
        BucketStats s = b.snapshot();
        assertThat(s.emptySeconds()).isCloseTo(0.1, within(NANO));
        assertThat(s.longestEmptySeconds()).isCloseTo(0.1, within(NANO));
        assertThat(s.throttled()).isEqualTo(1);
    }

    @Test
    void aCallerTakingEachTokenAsItArrivesKeepsTheBucketEmptyInOneStretch() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(10, 2), 0, clock, true);
        b.tryAcquire();
        b.tryAcquire(); // empty 0 - 0.1 s
        clock.advance(Duration.ofSeconds(1));
        b.tryAcquire();
        b.tryAcquire(); // full again at 1 s, empty from 1 s
        for (int i = 0; i < 5; i++) { // a token every 0.1 s, taken the instant it is there: one stretch
            clock.advance(Duration.ofMillis(100));
            assertThat(b.tryAcquire().admitted()).isTrue();
        }
        clock.advance(Duration.ofMillis(30)); // 1.53 s, still empty (until 1.6 s)
        BucketStats s = b.snapshot();
        assertThat(s.emptySeconds()).isCloseTo(0.1 + 0.53, within(NANO));
        assertThat(s.longestEmptySeconds()).isCloseTo(0.53, within(NANO));
        clock.advance(Duration.ofSeconds(2)); // the stretch ended at 1.6 s
        s = b.snapshot();
        assertThat(s.emptySeconds()).isCloseTo(0.1 + 0.6, within(NANO));
        assertThat(s.longestEmptySeconds()).isCloseTo(0.6, within(NANO));
        b.tryAcquire(); // the bucket is full again (2 tokens): one call leaves one, not empty
        assertThat(b.snapshot().emptySeconds()).isCloseTo(0.7, within(NANO));
    }

    @Test
    void aSpentWindowIsEmptyUntilItResets() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(WindowLimit.of(3, Duration.ofSeconds(5), WindowLimit.Alignment.FIRST_CALL),
                0, clock, true);
        for (int i = 0; i < 3; i++) {
            assertThat(b.tryAcquire().admitted()).isTrue();
        }
        clock.advance(Duration.ofSeconds(2));
        assertThat(b.tryAcquire().admitted()).isFalse();
        clock.advance(Duration.ofSeconds(10));
        BucketStats s = b.snapshot();
        assertThat(s.emptySeconds()).isCloseTo(5, within(NANO));
        assertThat(s.longestEmptySeconds()).isCloseTo(5, within(NANO));
    }

    @Test
    void aBucketThatCountsWithoutRefusingIsNeverEmpty() {
        ManualClock clock = new ManualClock();
        OneBucket b = new OneBucket(new Limit(1, 1), 0, clock, false);
        for (int i = 0; i < 10; i++) {
            b.tryAcquire();
            clock.advance(Duration.ofMillis(10));
        }
        assertThat(b.snapshot().emptySeconds()).isZero();
        assertThat(b.snapshot().longestEmptySeconds()).isZero();
    }
}
