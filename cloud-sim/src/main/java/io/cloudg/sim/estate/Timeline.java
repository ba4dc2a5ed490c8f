package io.cloudg.sim.estate;

import io.cloudg.sim.core.SimClock;

/**
 * Where the estate stands in time: nanoseconds since the simulator started, read from the simulator's clock.
 * An estate nobody started stands at 0 (before any churn).
 */
public final class Timeline {
    private volatile SimClock clock;
    private volatile long startNanos;

    /** From now on, time is {@code clock}'s, counted from this moment. */
    public void start(SimClock c) {
        this.startNanos = c.nanoTime();
        this.clock = c;
    }

    /** Nanoseconds since the start (0 before it). */
    public long elapsedNanos() {
        SimClock c = clock;
        return c == null ? 0 : c.nanoTime() - startNanos;
    }
}
