package io.cloudg.resilience.spi;

import io.cloudg.resilience.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;

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
 */
public record OutcomeRequest(Scope leaf, LeafLimit leafLimit, AttemptOutcome outcome, long retryAfterNanos,
                             BreakerLimit breaker, CallVerdict verdict, long probeGeneration, SlotLease release) {
}
