package io.cloudg.resilience.memory;

import io.cloudg.resilience.Scope;

/**
 * A leaf the governor slowed, as a state file keeps it between runs.
 *
 * @param leaf the leaf's scope ({@code aws/123456789012/us-east-1/ec2/DescribeImageAttribute})
 * @param rateRps the rate it ran at, below its ceiling
 * @param ceilingRps the configured rate it was slowed from
 * @param throttles throttled answers it had seen
 * @param lastThrottleEpochMillis when the provider last throttled it (wall clock): the learned rate is
 *        believed for {@code ratelimit.learned_ttl_hours} after that
 */
public record LearnedRate(Scope leaf, double rateRps, double ceilingRps, long throttles, long lastThrottleEpochMillis) {
    public LearnedRate {
        if (leaf == null) {
            throw new IllegalArgumentException("leaf must not be null");
        }
        if (!(rateRps > 0) || !(ceilingRps > 0) || Double.isInfinite(rateRps) || Double.isInfinite(ceilingRps)) {
            throw new IllegalArgumentException("rates must be positive, but were " + rateRps + " and " + ceilingRps);
        }
    }

    /** Whether it is older than {@code ttlMillis} at {@code nowEpochMillis}. */
    public boolean expired(long nowEpochMillis, long ttlMillis) {
        return nowEpochMillis - lastThrottleEpochMillis > ttlMillis;
    }
}
