package io.cloudg.resilience.spi;

import io.cloudg.resilience.Scope;
import io.cloudg.resilience.core.BreakerState;

/** A breaker as a report sees it. */
public record BreakerView(Scope leaf, BreakerState.Phase phase, int failures, long cooldownNanos, long retryInNanos,
                          long trips) {
}
