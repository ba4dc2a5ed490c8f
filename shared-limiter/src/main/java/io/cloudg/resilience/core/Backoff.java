package io.cloudg.resilience.core;

/**
 * Decorrelated jitter: {@code min(cap, uniform(base, 3 x previous))} with a base of 0.5 s, and never
 * less than the server's Retry-After. Pure given the random draw.
 */
public final class Backoff {
    public static final long BASE_NANOS = Time.SECOND / 2;

    private Backoff() {
    }

    /**
     * @param previousNanos the previous sleep of this call, or 0 before the first retry
     * @param capNanos {@code max_backoff_seconds}
     * @param retryAfterNanos the server's hint, or negative for none
     * @param unit a uniform draw from [0, 1)
     */
    public static long next(long previousNanos, long capNanos, long retryAfterNanos, double unit) {
        long prev = Math.max(BASE_NANOS, previousNanos);
        double hi = 3.0 * prev;
        double draw = BASE_NANOS + unit * (hi - BASE_NANOS);
        long sleep = (long) Math.min(capNanos, draw);
        return Math.max(sleep, retryAfterNanos);
    }
}
