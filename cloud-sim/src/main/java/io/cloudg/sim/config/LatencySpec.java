package io.cloudg.sim.config;

import java.time.Duration;

/**
 * Added to every answer: {@code base} plus a uniformly random share of {@code jitter} (seeded).
 */
public record LatencySpec(Duration base, Duration jitter) {
    public static final LatencySpec NONE = new LatencySpec(Duration.ZERO, Duration.ZERO);

    public boolean isZero() {
        return base.isZero() && jitter.isZero();
    }

    static LatencySpec read(SpecNode n) {
        if (!n.present()) {
            return NONE;
        }
        n.onlyKeys("base", "jitter");
        return new LatencySpec(Durations.read(n.get("base"), Duration.ZERO), Durations.read(n.get("jitter"), Duration.ZERO));
    }
}
