package io.cloudg.resilience.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Time since an event, "never" included: what periodic work (the fleet coordinator's lag read) relies on. */
class TimeTest {
    @Test
    void sinceNeverIsInfiniteWhateverTheClockSays() {
        assertThat(Time.since(1_764_000_000_000L, Time.NEVER)).isEqualTo(Long.MAX_VALUE);
        assertThat(Time.since(0, Time.NEVER)).isEqualTo(Long.MAX_VALUE);
        assertThat(Time.since(-1, Time.NEVER)).isEqualTo(Long.MAX_VALUE);
        assertThat(Time.since(1_764_000_000_000L, Time.NEVER) >= 5_000).as("due at once").isTrue();
    }

    @Test
    void sinceAnEventIsTheDifference() {
        long t = 1_764_000_000_000L;
        assertThat(Time.since(t, t)).isZero();
        assertThat(Time.since(t + 249, t)).isEqualTo(249);
        assertThat(Time.since(t + 250, t) >= 250).isTrue();
    }
}
