package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.BreakerState;

/**
 * One row of {@code cloudg ratelimit show}: a piece of fleet-wide governor state.
 *
 * @param scope what it belongs to ({@code aws/123456789012/us-east-1/ec2/DescribeSubnets}, {@code aws/123456789012},
 *        {@code aws})
 * @param kind leaf, account bucket, bulkhead, global bucket or retry budget
 * @param rateRps the current rate (leaves and buckets), or null
 * @param ceilingRps the configured ceiling (leaves), or null
 * @param throttles throttled answers seen (leaves), else 0
 * @param breaker the leaf's breaker phase, or null when it has none
 * @param value the kind's own figure: tokens left in a retry budget, slots held in a bulkhead, else null
 * @param ageSeconds seconds since it was last written
 * @param estate the estate an account's state is kept under ({@code aws:123456789012@aws}), or null: provider-wide
 *        state, or an account's kept before estates (or before discovery told it)
 */
public record RateLimitRow(Scope scope, RedisKeys.Kind kind, Double rateRps, Double ceilingRps, long throttles,
                           BreakerState.Phase breaker, Double value, double ageSeconds, String estate) {
    public RateLimitRow(Scope scope, RedisKeys.Kind kind, Double rateRps, Double ceilingRps, long throttles,
                        BreakerState.Phase breaker, Double value, double ageSeconds) {
        this(scope, kind, rateRps, ceilingRps, throttles, breaker, value, ageSeconds, null);
    }

    /** Slower than its ceiling (an AIMD leaf that learned to back off). */
    public boolean slowed() {
        return rateRps != null && ceilingRps != null && rateRps < ceilingRps;
    }
}
