package io.cloudg.resilience.core;

/**
 * A breaker's settings, in nanoseconds.
 *
 * @param threshold consecutive failed calls that open it
 * @param cooldownNanos the base open time
 * @param maxCooldownNanos the cap of the doubling open time
 * @param probeLeaseNanos how long a half-open probe may run before the next call may probe instead
 */
public record BreakerLimit(int threshold, long cooldownNanos, long maxCooldownNanos, long probeLeaseNanos) {
    public BreakerLimit {
        if (threshold < 1) {
            throw new IllegalArgumentException("breaker threshold must be >= 1, but was " + threshold);
        }
        if (cooldownNanos <= 0 || maxCooldownNanos < cooldownNanos || probeLeaseNanos <= 0) {
            throw new IllegalArgumentException("breaker times must be positive with max >= base, but were "
                    + cooldownNanos + "/" + maxCooldownNanos + "/" + probeLeaseNanos + " ns");
        }
    }
}
