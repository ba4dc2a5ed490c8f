package io.cloudg.sim.quota;

/**
 * What a noisy neighbour (other pipelines sharing the quota) does to one bucket.
 *
 * @param share           fraction (0..1) of the refill (of each window's calls) it consumes steadily
 * @param burstEveryNanos mean time between its bursts (exponentially distributed, seeded); 0: never
 * @param burstSize       fraction (0..1] of the capacity one burst spends, as far as there is any left
 */
public record Neighbour(double share, long burstEveryNanos, double burstSize) {
    /** Nobody else uses the quota. */
    public static final Neighbour NONE = new Neighbour(0, 0, 0);

    public Neighbour {
        if (!(share >= 0 && share < 1)) {
            throw new IllegalArgumentException("neighbour share must be in [0, 1): " + share);
        }
        if (burstEveryNanos < 0) {
            throw new IllegalArgumentException("burst interval must not be negative: " + burstEveryNanos);
        }
        if (!(burstSize >= 0 && burstSize <= 1)) {
            throw new IllegalArgumentException("burst size must be in [0, 1]: " + burstSize);
        }
    }

    public static Neighbour steady(double share) {
        return new Neighbour(share, 0, 0);
    }

    public boolean bursts() {
        return burstEveryNanos > 0 && burstSize > 0;
    }

    /**
     * When burst number {@code index} (0, 1, ...) happens, given the previous one at {@code after}: an
     * exponential interval drawn from the seed and the index alone, so the schedule does not depend on who
     * calls when.
     */
    long burstAfter(long seed, long index, long after) {
        double u = Draws.uniform(seed, index);
        double gap = -Math.log(1 - u) * burstEveryNanos;
        return after + Math.max(1, (long) gap);
    }
}
