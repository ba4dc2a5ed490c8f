package io.cloudg.resilience;

import io.cloudg.resilience.spi.SlotLease;

/**
 * A bulkhead slot held for a unit of work larger than one call, such as a whole paged listing (GCP
 * holds one slot per Cloud Asset listing, all pages included). Calls opened with
 * {@link CallOptions#held(SlotHold)} take no slot of their own and keep this one's lease fresh. It holds a place
 * under the process's ceiling on calls in flight ({@code ratelimit.max_calls_in_flight}) too. Close it to give
 * both back.
 */
public final class SlotHold implements AutoCloseable {
    private final Governor governor;
    private final CallPlan plan;
    private volatile SlotLease lease;
    private volatile long renewedAt;
    /** Whether the hold has its place under the process's ceiling on calls in flight (given back on close). */
    private volatile boolean place;

    SlotHold(Governor governor, CallPlan plan, SlotLease lease, long now) {
        this.governor = governor;
        this.plan = plan;
        this.lease = lease;
        this.renewedAt = now;
    }

    void placeTaken() {
        place = true;
    }

    /** The held lease, or null when the provider's governor is disabled. */
    public SlotLease lease() {
        return lease;
    }

    /** Renews the lease when half of it has passed; called by each call made under this hold. */
    void touch(long now) {
        SlotLease l = lease;
        if (l != null && now - renewedAt > plan.slot.leaseNanos() / 2) {
            renewedAt = now;
            governor.store().renewSlot(l, plan.slot.leaseNanos());
        }
    }

    @Override
    public void close() {
        SlotLease l = lease;
        if (l != null) {
            lease = null;
            governor.store().releaseSlot(l);
            plan.gate.released();
        }
        if (place) {
            place = false;
            governor.ceiling().release();
        }
    }
}
