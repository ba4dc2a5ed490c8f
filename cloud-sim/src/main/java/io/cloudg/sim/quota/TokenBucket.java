package io.cloudg.sim.quota;

import io.cloudg.sim.core.SimClock;

/**
 * A continuously refilling token bucket with exact window statistics. Thread-safe (one lock per bucket;
 * the work under it is constant time apart from the amortised window trim).
 */
public final class TokenBucket {
    private static final long SECOND = 1_000_000_000L;

    private final String key;
    private final Limit limit;
    private final double neighbourShare;
    private final double effectiveRatePerNano;
    private final SimClock clock;
    private final boolean enforcing;

    private double tokens;
    private long lastNanos;
    private long calls;
    private long throttled;
    private long maxInWindow;
    private double neighbourTokens;
    /** Ring buffer of admission timestamps within the last second. */
    private long[] window = new long[64];
    private int head;
    private int size;

    /**
     * @param neighbourShare fraction (0..1) of the refill a noisy neighbour consumes
     * @param enforcing      false to count calls without ever refusing one (quotas off)
     */
    public TokenBucket(String key, Limit limit, double neighbourShare, SimClock clock, boolean enforcing) {
        if (neighbourShare < 0 || neighbourShare >= 1) {
            throw new IllegalArgumentException("neighbour share must be in [0, 1): " + neighbourShare);
        }
        this.key = key;
        this.limit = limit;
        this.neighbourShare = neighbourShare;
        this.effectiveRatePerNano = limit.rate() * (1 - neighbourShare) / SECOND;
        this.clock = clock;
        this.enforcing = enforcing;
        this.tokens = limit.burst();
        this.lastNanos = clock.nanoTime();
    }

    public String key() {
        return key;
    }

    public Limit limit() {
        return limit;
    }

    /** Takes one token if there is one. */
    public synchronized Admission tryAcquire() {
        long now = clock.nanoTime();
        refill(now);
        calls++;
        if (enforcing && tokens < 1.0) {
            throttled++;
            long wait = (long) Math.ceil((1.0 - tokens) / effectiveRatePerNano);
            return new Admission(false, 0, Math.max(wait, 1), fullAfter());
        }
        tokens = Math.max(0, tokens - 1.0);
        recordAdmission(now);
        return new Admission(true, (long) Math.floor(tokens), 0, fullAfter());
    }

    /** Tokens available now, without taking any. */
    public synchronized long available() {
        refill(clock.nanoTime());
        return (long) Math.floor(tokens);
    }

    public synchronized BucketStats snapshot() {
        long now = clock.nanoTime();
        refill(now);
        return new BucketStats(key, calls, throttled, calls - throttled, maxInWindow, limit.rate(), limit.burst(),
            neighbourShare, Math.floor(neighbourTokens));
    }

    private long fullAfter() {
        return (long) Math.ceil((limit.burst() - tokens) / effectiveRatePerNano);
    }

    private void refill(long now) {
        long elapsed = now - lastNanos;
        if (elapsed > 0) {
            tokens = Math.min(limit.burst(), tokens + elapsed * effectiveRatePerNano);
            neighbourTokens += elapsed * (limit.rate() * neighbourShare / SECOND);
            lastNanos = now;
        }
    }

    private void recordAdmission(long now) {
        long cutoff = now - SECOND;
        while (size > 0 && window[head] <= cutoff) {
            head = (head + 1) % window.length;
            size--;
        }
        if (size == window.length) {
            long[] grown = new long[window.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = window[(head + i) % window.length];
            }
            window = grown;
            head = 0;
        }
        window[(head + size) % window.length] = now;
        size++;
        if (size > maxInWindow) {
            maxInWindow = size;
        }
    }

    @Override
    public String toString() {
        return "TokenBucket[" + key + ", " + limit + "]";
    }
}
