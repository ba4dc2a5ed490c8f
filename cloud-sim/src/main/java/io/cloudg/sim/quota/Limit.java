package io.cloudg.sim.quota;

/**
 * A token-bucket limit.
 *
 * @param rate   tokens added per second
 * @param burst  bucket capacity (tokens available to a caller that has been idle)
 * @param refill continuously or in whole-second steps
 */
public record Limit(double rate, double burst, Refill refill) implements Quota {
    public Limit {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be a positive number: " + rate);
        }
        if (!(burst >= 1) || Double.isInfinite(burst)) {
            throw new IllegalArgumentException("burst must be at least 1: " + burst);
        }
        if (refill == null) {
            throw new IllegalArgumentException("refill is required");
        }
    }

    /** A continuously refilled bucket. */
    public Limit(double rate, double burst) {
        this(rate, burst, Refill.CONTINUOUS);
    }

    /** A per-minute quota as a bucket: the whole minute's allowance as burst, refilled evenly. */
    public static Limit perMinute(double perMinute) {
        return new Limit(perMinute / 60.0, perMinute);
    }

    public Limit withRefill(Refill r) {
        return new Limit(rate, burst, r);
    }

    @Override
    public double ratePerSecond() {
        return rate;
    }

    @Override
    public double capacity() {
        return burst;
    }
}
