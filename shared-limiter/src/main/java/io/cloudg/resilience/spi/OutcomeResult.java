package io.cloudg.resilience.spi;

import io.cloudg.resilience.core.BreakerState;

/**
 * What an outcome changed.
 *
 * @param rateDecreased this throttle halved the leaf (a new throttling event)
 * @param rateRps the leaf's rate afterwards
 * @param breakerPhase the breaker's phase afterwards
 * @param tripped this outcome opened the breaker
 */
public record OutcomeResult(boolean rateDecreased, double rateRps, BreakerState.Phase breakerPhase, boolean tripped) {
}
