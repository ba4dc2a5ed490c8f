package io.cloudg.sim.config;

import io.cloudg.sim.quota.Neighbour;
import java.time.Duration;

/**
 * A noisy neighbour: other pipelines and people sharing a quota. It consumes {@code share} of the refill
 * (of each window) of every bucket whose first call matches {@code match} and, when {@code bursts} says so,
 * also spends part of the bucket's capacity at seeded random moments.
 *
 * <pre>
 * noisy_neighbours:
 *   - {match: {provider: aws, service: ec2}, share: 0.5, bursts: {every: 30s, size: 0.5}}
 * </pre>
 *
 * @param bursts its bursts; null: the profile's default ({@link Bursts#STRICT_DEFAULT} in strict, none in
 *               lenient)
 */
public record NeighbourSpec(Match match, double share, Bursts bursts) {

    /**
     * Bursts at seeded random moments, on average one per {@code every}, each spending {@code size} of the
     * bucket's capacity (of the window's calls), as far as there is any left.
     */
    public record Bursts(Duration every, double size) {
        /** Strict's default: every 30 s on average, half the capacity (guessed). */
        public static final Bursts STRICT_DEFAULT = new Bursts(Duration.ofSeconds(30), 0.5);
        /** No bursts. */
        public static final Bursts NONE = new Bursts(Duration.ZERO, 0);
    }

    /** A neighbour whose bursts are the profile's default. */
    public NeighbourSpec(Match match, double share) {
        this(match, share, null);
    }

    /** What this neighbour does to a bucket under {@code realism}. */
    public Neighbour load(Realism realism) {
        Bursts b = bursts != null ? bursts : realism.strict() ? Bursts.STRICT_DEFAULT : Bursts.NONE;
        return new Neighbour(share, b.every().toNanos(), b.size());
    }

    static NeighbourSpec read(SpecNode n) {
        n.onlyKeys("match", "share", "bursts");
        if (!n.get("share").present()) {
            throw n.get("share").error("required (a number from 0 to 1, exclusive)");
        }
        Bursts bursts = null;
        SpecNode b = n.get("bursts");
        if (b.present()) {
            b.onlyKeys("every", "size");
            Duration every = Durations.read(b.get("every"), Bursts.STRICT_DEFAULT.every());
            double size = b.get("size").fraction(Bursts.STRICT_DEFAULT.size(), false);
            if (every.isZero() && size > 0) {
                throw b.get("every").error("expected a positive duration, got " + b.get("every").describe());
            }
            bursts = new Bursts(every, size);
        }
        return new NeighbourSpec(Match.read(n.get("match")), n.get("share").fraction(0, true), bursts);
    }
}
