package io.cloudg.resilience.config;

/**
 * The configured limits of one leaf bucket: its ceiling rate, burst, the floor AIMD may not go below,
 * and whether it adapts at all.
 */
public record LeafLimit(double ceilingRps, double burst, double minRps, boolean adaptive) {
    public LeafLimit {
        ConfigErrors.positive("leaf.max_rps", ceilingRps);
        ConfigErrors.positive("leaf.burst", burst);
        ConfigErrors.positive("leaf.min_rps", minRps);
    }

    /** The lowest rate AIMD may set: {@code min_rps}, or the ceiling itself if that is lower. */
    public double floorRps() {
        return Math.min(minRps, ceilingRps);
    }
}
