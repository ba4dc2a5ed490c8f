package io.cloudg.sim.config;

/**
 * A noisy neighbour: other pipelines and people sharing a quota. It consumes {@code share} of the refill
 * of every bucket whose first call matches {@code match}.
 */
public record NeighbourSpec(Match match, double share) {
    static NeighbourSpec read(SpecNode n) {
        n.onlyKeys("match", "share");
        if (!n.get("share").present()) {
            throw n.get("share").error("required (a number from 0 to 1, exclusive)");
        }
        return new NeighbourSpec(Match.read(n.get("match")), n.get("share").fraction(0, true));
    }
}
