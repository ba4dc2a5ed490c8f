package io.cloudg.sim.quota;

import java.time.Duration;

/**
 * A fixed-window quota: at most {@code calls} per window; the whole allowance comes back when the window
 * ends.
 *
 * @param calls       calls allowed per window
 * @param windowNanos window length
 * @param alignment   when windows start
 */
public record WindowLimit(int calls, long windowNanos, Alignment alignment) implements Quota {

    /** When a window starts. */
    public enum Alignment {
        /** At the first call after the previous window ended (Resource Graph's per-user windows). */
        FIRST_CALL,
        /** On multiples of the window length of the simulator's clock (per-minute quotas). */
        CLOCK
    }

    public WindowLimit {
        if (calls < 1) {
            throw new IllegalArgumentException("calls per window must be positive: " + calls);
        }
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("window must be positive: " + windowNanos);
        }
        if (alignment == null) {
            throw new IllegalArgumentException("alignment is required");
        }
    }

    public static WindowLimit of(int calls, Duration window, Alignment alignment) {
        return new WindowLimit(calls, window.toNanos(), alignment);
    }

    @Override
    public double ratePerSecond() {
        return calls * 1e9 / windowNanos;
    }

    @Override
    public double capacity() {
        return calls;
    }
}
