package io.cloudg.resilience.core;

import io.cloudg.resilience.config.BucketLimit;

/**
 * Token buckets by reservation, as pure functions.
 *
 * <p>Taking never refuses and never blocks: the balance may go negative, and the caller is told how long
 * to wait until the tokens it took are covered by refill. Because each reservation pushes the balance
 * further down, callers get consecutive slots in arrival order: a fair queue without a queue. Refill is
 * credited from {@code refilledAt}; a paused bucket has {@code refilledAt} in the future, which adds the
 * pause to every wait. The balance never exceeds the burst.
 */
public final class TokenBuckets {
    private TokenBuckets() {
    }

    /** Credits refill from {@code refilledAt} up to {@code now} at {@code rate}, capped at {@code burst}. */
    public static double refilled(double tokens, long refilledAt, long now, double rate, double burst) {
        if (now <= refilledAt) {
            return tokens;
        }
        double t = tokens + (now - refilledAt) * rate / Time.SECOND;
        return Math.min(burst, t);
    }

    /**
     * The wait for a balance of {@code tokens} (after taking) credited from {@code refilledAt}: the pause,
     * if any, plus the time to refill the deficit.
     */
    public static long waitFor(double tokens, long refilledAt, long now, double rate) {
        long pause = Math.max(0, refilledAt - now);
        if (tokens >= 0) {
            return pause;
        }
        return pause + (long) Math.ceil(-tokens * Time.SECOND / rate);
    }

    /** Takes {@code permits} from a fixed-rate bucket. */
    public static Reservation<BucketState> reserve(BucketState s, long now, BucketLimit limit, int permits) {
        BucketState cur = s == null ? BucketState.full(limit.burst(), now) : s;
        double tokens = refilled(cur.tokens(), cur.refilledAt(), now, limit.rateRps(), limit.burst());
        long at = Math.max(now, cur.refilledAt());
        tokens -= permits;
        return new Reservation<>(new BucketState(tokens, at), waitFor(tokens, at, now, limit.rateRps()));
    }
}
