package io.cloudg.resilience.memory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory bulkhead of one provider x account: the rules of the {@code StateStore} contract (at most
 * {@code max} unexpired leases, expired ones swept only when the bulkhead is full; the Redis backend's
 * {@code cloudg.lua} keeps the same rules in one hash per account), without a lock. Every leaf of an account shares its bulkhead, so a lock
 * here would serialize calls that share nothing else; a thread descheduled while holding it would stall
 * them all.
 *
 * <p>{@code held} counts the leases in the table plus acquirers between their reservation and their
 * insertion; a slot is reserved by compare-and-set only while {@code held < max}, so the cap is hard under
 * any interleaving. A lease leaves the table exactly once (release, a failed renewal or a sweep, each an
 * atomic removal of the map entry) and only that removal gives its slot back.
 */
final class Bulkhead {
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicLong sequence = new AtomicLong(1);
    /**
     * Lease id to expiry. Sized for a typical bulkhead (up to 128) and fed scattered ids: consecutive ids
     * would land in neighbouring bins, where concurrent callers collide on bin locks and cache lines.
     */
    private final ConcurrentHashMap<Long, Long> expiries = new ConcurrentHashMap<>(128);

    /** A new lease id, or -1 if all {@code max} slots are held by unexpired leases. */
    long acquire(long now, long leaseNanos, int max) {
        if (!reserve(max)) {
            sweep(now);
            if (!reserve(max)) {
                return -1;
            }
        }
        long id = scatter(sequence.getAndIncrement());
        expiries.put(id, now + leaseNanos);
        return id;
    }

    /**
     * A bijection of [1, 2^63) onto itself (multiplication by an odd constant modulo 2^63): distinct
     * sequence numbers give distinct, positive ids, spread over the whole table.
     */
    static long scatter(long seq) {
        return (seq * 0x9E3779B97F4A7C15L) & Long.MAX_VALUE;
    }

    private boolean reserve(int max) {
        return held.getAndUpdate(h -> h < max ? h + 1 : h) < max;
    }

    /** Gives a lease back; false if it was unknown or had already expired and been swept. */
    boolean release(long id) {
        if (expiries.remove(id) != null) {
            held.decrementAndGet();
            return true;
        }
        return false;
    }

    /** Extends a live lease; false if it expired (its slot may already belong to someone else). */
    boolean renew(long id, long now, long leaseNanos) {
        Long exp = expiries.get(id);
        while (exp != null) {
            if (exp <= now) {
                if (expiries.remove(id, exp)) {
                    held.decrementAndGet();
                    return false;
                }
            } else if (expiries.replace(id, exp, now + leaseNanos)) {
                return true;
            }
            exp = expiries.get(id); // changed meanwhile: look again
        }
        return false;
    }

    /** Unexpired leases as of {@code now}. */
    int inUse(long now) {
        sweep(now);
        return held.get();
    }

    private void sweep(long now) {
        for (Map.Entry<Long, Long> e : expiries.entrySet()) {
            Long exp = e.getValue();
            if (exp <= now && expiries.remove(e.getKey(), exp)) {
                held.decrementAndGet();
            }
        }
    }
}
