package io.cloudg.resilience.spi;

import io.cloudg.resilience.core.BreakerDecision;

/**
 * The gate's answer.
 *
 * @param breaker PERMIT, PROBE (this attempt is the half-open probe) or REJECT (nothing was taken)
 * @param waitNanos how long to wait before sending: the slowest level's reservation (0 when rejected)
 * @param lease the bulkhead slot taken, or null if none was asked for or none was free
 */
public record Admission(BreakerDecision breaker, long waitNanos, SlotLease lease) {

    public static Admission rejected(BreakerDecision d) {
        return new Admission(d, 0, null);
    }

    public boolean rejected() {
        return breaker.rejected();
    }
}
