package io.cloudg.resilience.spi;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.QuotaWindow;

/**
 * Everything that changes after one attempt, in one request.
 *
 * @param leaf the leaf scope
 * @param leafLimit the leaf's limits
 * @param outcome what the attempt came back with (AIMD reads it)
 * @param retryAfterNanos the provider's Retry-After hint, capped, or negative for none
 * @param breaker the breaker's settings, or null when breakers are off for this call
 * @param verdict NONE while the call goes on; otherwise how the whole call ended (the breaker reads it)
 * @param probeGeneration the probe generation the call was admitted with, 0 if it was not a probe
 * @param release a bulkhead slot to give back, or null
 * @param window what a throttled answer said about a fixed-window quota ({@link QuotaWindow#NONE}: nothing)
 */
public record OutcomeRequest(Scope leaf, LeafLimit leafLimit, AttemptOutcome outcome, long retryAfterNanos,
                             BreakerLimit breaker, CallVerdict verdict, long probeGeneration, SlotLease release,
                             QuotaWindow window) {
    public OutcomeRequest {
        window = window == null ? QuotaWindow.NONE : window;
    }

    /** An outcome that says nothing about a quota window. */
    public OutcomeRequest(Scope leaf, LeafLimit leafLimit, AttemptOutcome outcome, long retryAfterNanos,
                          BreakerLimit breaker, CallVerdict verdict, long probeGeneration, SlotLease release) {
        this(leaf, leafLimit, outcome, retryAfterNanos, breaker, verdict, probeGeneration, release, QuotaWindow.NONE);
    }
}
