package io.cloudg.resilience.memory;

import io.cloudg.resilience.spi.Scope;

/**
 * A leaf the governor slowed, as a state file keeps it between runs.
 *
 * @param estate the estate the rate was learned against ({@code aws:123456789012@aws}: see
 *        {@link LearnedRatesFile}); only a run of the same estate starts from it. {@link LearnedRatesFile#LEGACY}
 *        for an entry of a version-1 file, which named none
 * @param leaf the leaf's scope ({@code aws/123456789012/us-east-1/ec2/DescribeImageAttribute})
 * @param rateRps the rate it ran at, below its ceiling
 * @param ceilingRps the configured rate it was slowed from
 * @param throttles throttled answers it had seen
 * @param lastThrottleEpochMillis when the provider last throttled it (wall clock): the learned rate is
 *        believed for {@code ratelimit.learned_ttl_hours} after that
 */
public record LearnedRate(String estate, Scope leaf, double rateRps, double ceilingRps, long throttles,
                          long lastThrottleEpochMillis) {
    public LearnedRate {
        if (estate == null || estate.isBlank()) {
            throw new IllegalArgumentException("estate must not be blank, but was " + (estate == null ? "null" : "\"\""));
        }
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

    /** Whether it came from a version-1 file, which kept no estate: no run starts from it. */
    public boolean legacy() {
        return LearnedRatesFile.LEGACY.equals(estate);
    }
}
