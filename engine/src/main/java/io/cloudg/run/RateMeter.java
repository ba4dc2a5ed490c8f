package io.cloudg.run;

/**
 * A rate (calls per second) smoothed over about {@code tau}: until {@code tau} has passed since the first
 * sample, the mean since then; afterwards an exponentially weighted mean whose weight follows the time
 * between samples, so that a terminal's two samples a second and a log's one every ten seconds give the
 * same rate. Fed with a running count and the time; pure apart from its own state. Not thread-safe.
 */
public final class RateMeter {
    private final double tauSeconds;
    private long firstAt = Long.MIN_VALUE;
    private long firstCount;
    private long lastAt;
    private long lastCount;
    private double rate = Double.NaN;

    public RateMeter(double tauSeconds) {
        if (!(tauSeconds > 0)) {
            throw new IllegalArgumentException("tau must be > 0, but was " + tauSeconds);
        }
        this.tauSeconds = tauSeconds;
    }

    /** Notes the running {@code count} at {@code nowMillis}; returns the rate (NaN before two samples). */
    public double update(long count, long nowMillis) {
        if (firstAt == Long.MIN_VALUE) {
            firstAt = nowMillis;
            firstCount = count;
            lastAt = nowMillis;
            lastCount = count;
            return rate;
        }
        double dt = (nowMillis - lastAt) / 1000.0;
        if (dt <= 0) {
            return rate;
        }
        double since = (nowMillis - firstAt) / 1000.0;
        double recent = (count - lastCount) / dt;
        if (since <= tauSeconds || Double.isNaN(rate)) {
            rate = (count - firstCount) / since;
        } else {
            double w = 1 - Math.exp(-dt / tauSeconds);
            rate = rate + w * (recent - rate);
        }
        lastAt = nowMillis;
        lastCount = count;
        return rate;
    }

    public double rate() {
        return rate;
    }
}
