package io.cloudg.resilience.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Decorrelated jitter: min(cap, uniform(0.5 s, 3 x previous)), never below Retry-After. */
class BackoffTest {
    static final long S = Time.SECOND;
    static final long CAP = 20 * S;

    @Test
    void theFirstRetryDrawsBetweenHalfASecondAndOneAndAHalf() {
        assertThat(Backoff.next(0, CAP, -1, 0.0)).isEqualTo(S / 2);
        assertThat(Backoff.next(0, CAP, -1, 0.999999)).isBetween(3 * S / 2 - 10_000, 3 * S / 2);
    }

    @Test
    void eachDrawIsBoundedByThreeTimesThePreviousSleep() {
        long prev = 2 * S;
        for (double u = 0; u < 1; u += 0.05) {
            long next = Backoff.next(prev, CAP, -1, u);
            assertThat(next).isBetween(S / 2, 3 * prev);
        }
        assertThat(Backoff.next(prev, CAP, -1, 0.5)).isEqualTo((long) (S / 2 + 0.5 * (6 * S - S / 2)));
    }

    @Test
    void theCapHoldsHoweverLongThePreviousSleep() {
        assertThat(Backoff.next(15 * S, CAP, -1, 0.99)).isEqualTo(CAP);
        assertThat(Backoff.next(1_000 * S, CAP, -1, 0.0)).as("the floor is 0.5 s, not the previous").isEqualTo(S / 2);
    }

    @Test
    void retryAfterIsAFloorEvenAboveTheCap() {
        assertThat(Backoff.next(0, CAP, 45 * S, 0.0)).isEqualTo(45 * S);
        assertThat(Backoff.next(4 * S, CAP, S, 0.9)).isGreaterThan(S);
    }
}
