package io.cloudg.resilience.core;

/**
 * A fixed-rate token bucket (the provider-wide and account levels).
 *
 * @param tokens the balance; negative when callers hold reservations not yet covered by refill
 * @param refilledAt the time up to which refill has been credited; may lie in the future while paused
 */
public record BucketState(double tokens, long refilledAt) {
    public static BucketState full(double burst, long now) {
        return new BucketState(burst, now);
    }
}
