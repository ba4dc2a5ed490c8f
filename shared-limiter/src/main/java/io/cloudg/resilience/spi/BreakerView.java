package io.cloudg.resilience.spi;

import io.cloudg.resilience.core.BreakerState;

/** A breaker as a report sees it. */
public record BreakerView(Scope leaf, BreakerState.Phase phase, int failures, long cooldownNanos, long retryInNanos,
                          long trips) {
    /** Open, half-open, or closed again after tripping: what the report lists. */
    public boolean troubled() {
        return troubled(phase, trips);
    }

    /** Whether a breaker in {@code phase} that tripped {@code trips} times is troubled (what {@link #troubled()} says). */
    public static boolean troubled(BreakerState.Phase phase, long trips) {
        return phase != BreakerState.Phase.CLOSED || trips > 0;
    }
}
