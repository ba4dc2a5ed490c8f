package io.cloudg.resilience.core;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * A bulkhead: at most {@code max} leases at once, each expiring at a time given when it was taken or last
 * renewed, so a holder that vanished gives its slot back within the lease time. Expired leases are
 * swept only when the table is full, which keeps the common path O(1). Not thread-safe: the owner locks.
 */
public final class LeaseTable {
    private final Map<Long, Long> expiries = new HashMap<>();
    private long nextId = 1;

    /** A new lease id, or -1 if all {@code max} slots are held by unexpired leases. */
    public long acquire(long now, long leaseNanos, int max) {
        if (expiries.size() >= max) {
            sweep(now);
            if (expiries.size() >= max) {
                return -1;
            }
        }
        long id = nextId++;
        expiries.put(id, now + leaseNanos);
        return id;
    }

    /** Gives a lease back; false if it was unknown or had already expired and been swept. */
    public boolean release(long id) {
        return expiries.remove(id) != null;
    }

    /** Extends a live lease; false if it expired (its slot may already belong to someone else). */
    public boolean renew(long id, long now, long leaseNanos) {
        Long exp = expiries.get(id);
        if (exp == null || exp <= now) {
            expiries.remove(id);
            return false;
        }
        expiries.put(id, now + leaseNanos);
        return true;
    }

    /** Unexpired leases as of {@code now}. */
    public int inUse(long now) {
        sweep(now);
        return expiries.size();
    }

    /** The earliest expiry among the leases, or {@link Time#NEVER} if none. */
    public long earliestExpiry() {
        long min = Long.MAX_VALUE;
        for (long e : expiries.values()) {
            min = Math.min(min, e);
        }
        return expiries.isEmpty() ? Time.NEVER : min;
    }

    private void sweep(long now) {
        for (Iterator<Long> it = expiries.values().iterator(); it.hasNext(); ) {
            if (it.next() <= now) {
                it.remove();
            }
        }
    }
}
