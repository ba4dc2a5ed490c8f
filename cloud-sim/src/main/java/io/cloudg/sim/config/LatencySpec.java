package io.cloudg.sim.config;

import java.time.Duration;

/**
 * Added to every answer: {@code base} plus a uniformly random share of {@code jitter} (seeded), plus
 * {@code per_item} for every item the answer lists (a page of 1,000 takes longer than a page of 10).
 *
 * @param perItem per listed item; null: the profile's default ({@link #STRICT_PER_ITEM} in strict, none in
 *                lenient)
 */
public record LatencySpec(Duration base, Duration jitter, Duration perItem) {
    public static final LatencySpec NONE = new LatencySpec(Duration.ZERO, Duration.ZERO, null);
    /** Strict's default per listed item (guessed: a 1,000-item EC2 page answers in about half a second). */
    public static final Duration STRICT_PER_ITEM = Duration.ofNanos(500_000);

    public LatencySpec(Duration base, Duration jitter) {
        this(base, jitter, null);
    }

    /** Whether base and jitter are both zero (per-item latency aside). */
    public boolean isZero() {
        return base.isZero() && jitter.isZero();
    }

    /** The per-item latency in effect under {@code realism}. */
    public Duration perItem(Realism realism) {
        return perItem != null ? perItem : realism.strict() ? STRICT_PER_ITEM : Duration.ZERO;
    }

    public LatencySpec withPerItem(Duration d) {
        return new LatencySpec(base, jitter, d);
    }

    static LatencySpec read(SpecNode n) {
        if (!n.present()) {
            return NONE;
        }
        n.onlyKeys("base", "jitter", "per_item");
        return new LatencySpec(Durations.read(n.get("base"), Duration.ZERO), Durations.read(n.get("jitter"), Duration.ZERO),
            Durations.read(n.get("per_item"), null));
    }
}
