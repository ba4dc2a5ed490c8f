package io.cloudg.resilience.spi;

import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;

/**
 * Everything the gate before one attempt needs, in one request (one round trip for a remote store).
 *
 * @param provider the provider, for the provider-wide bucket
 * @param global the provider-wide bucket's limits, or null when off
 * @param account the account scope, for the account bucket
 * @param accountLimit the account bucket's limits, or null when off
 * @param leaf the leaf scope (bucket and breaker granularity)
 * @param leafLimit the leaf's limits
 * @param breaker the leaf breaker's settings, or null when breakers are off for this call
 * @param slot a bulkhead slot to take in the same request, but only if the admission needs no wait (a
 *        caller that must wait for tokens takes its slot afterwards, so that no slot sits idle while its
 *        holder waits); null to take none
 * @param permits tokens to take at every level (1 for one request)
 */
public record AdmitRequest(String provider, BucketLimit global, Scope account, BucketLimit accountLimit, Scope leaf,
                           LeafLimit leafLimit, BreakerLimit breaker, SlotRequest slot, int permits) {
    public AdmitRequest {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1, but was " + permits);
        }
    }
}
