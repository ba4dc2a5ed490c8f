package io.cloudg.resilience.core;

/** Nanosecond helpers shared by the pure algorithms. */
public final class Time {
    /** "Never happened": older than any real timestamp. */
    public static final long NEVER = Long.MIN_VALUE;
    public static final long SECOND = 1_000_000_000L;

    private Time() {
    }

    /**
     * Time from {@code then} to {@code now}, in their unit (nanoseconds in the algorithms, milliseconds where a
     * caller keeps epoch millis); {@link Long#MAX_VALUE} if {@code then} is NEVER (a plain {@code now - NEVER}
     * overflows to a negative number).
     */
    public static long since(long now, long then) {
        return then == NEVER ? Long.MAX_VALUE : now - then;
    }

    /** {@code seconds} as nanoseconds, rounded up, saturating. */
    public static long nanos(double seconds) {
        if (seconds >= Long.MAX_VALUE / (double) SECOND) {
            return Long.MAX_VALUE;
        }
        return (long) Math.ceil(seconds * SECOND);
    }

    public static double seconds(long nanos) {
        return nanos / (double) SECOND;
    }
}
