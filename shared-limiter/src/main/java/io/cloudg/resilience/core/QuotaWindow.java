package io.cloudg.resilience.core;

/**
 * What a throttled answer said about a fixed-window quota: a quota that grants {@code calls} per window and
 * gives all of them back when the window ends (Azure Resource Graph: 15 queries per 5-second window per user,
 * with the time to the reset in {@code x-ms-user-quota-resets-after}; GCP Cloud Asset: per-minute quotas, with
 * the limit's value and unit in the error's {@code ErrorInfo}). Either part may be missing: Resource Graph
 * says when the window resets but not its size, Cloud Asset its size but not when it resets.
 * {@link Leaves#onThrottle} turns it into a pause until the reset and a rate of the window's quota spread over
 * the window ({@link #spreadRps()}).
 *
 * @param resetNanos the time from the answer until the window resets; negative when not said
 * @param calls the calls one window grants; 0 when not said
 * @param windowNanos the window's length; 0 when not said
 * @param per what the quota is counted per, as the provider names it (GCP's {@code quota_unit}
 *        {@code 1/min/{project}} is {@code project}, {@code {organization}} is {@code organization}); null when
 *        not said. A call charged to several quotas ({@link io.cloudg.resilience.CallOptions#charging}) feeds the
 *        throttle to the leaf of the quota it names.
 */
public record QuotaWindow(long resetNanos, long calls, long windowNanos, String per) {
    /** A throttle that said nothing about a window. */
    public static final QuotaWindow NONE = new QuotaWindow(-1, 0, 0, null);

    public QuotaWindow {
        if (calls < 0 || windowNanos < 0) {
            throw new IllegalArgumentException("a quota window's calls and length must be >= 0, but were " + calls
                    + " and " + windowNanos);
        }
        if (resetNanos < 0) {
            resetNanos = -1;
        }
    }

    /** A window whose reset time is known ({@code resetNanos} from now), its size not. */
    public static QuotaWindow resetsIn(long resetNanos) {
        return new QuotaWindow(resetNanos, 0, 0, null);
    }

    /** A window whose size is known ({@code calls} per {@code windowNanos}), its reset time not. */
    public static QuotaWindow sized(long calls, long windowNanos) {
        return new QuotaWindow(-1, calls, windowNanos, null);
    }

    /** This window with its size known. */
    public QuotaWindow withSize(long calls, long windowNanos) {
        return new QuotaWindow(resetNanos, calls, windowNanos, per);
    }

    /** This window counted per {@code what}. */
    public QuotaWindow per(String what) {
        return new QuotaWindow(resetNanos, calls, windowNanos, what);
    }

    /** This window with its reset at most {@code maxNanos} away. */
    public QuotaWindow resetAtMost(long maxNanos) {
        return resetNanos > maxNanos ? new QuotaWindow(maxNanos, calls, windowNanos, per) : this;
    }

    /** Whether the answer said when the window resets. */
    public boolean resets() {
        return resetNanos >= 0;
    }

    /** Whether the answer said how many calls the window grants and how long it is. */
    public boolean sized() {
        return calls > 0 && windowNanos > 0;
    }

    /** Whether the answer said anything about a window. */
    public boolean known() {
        return resets() || sized();
    }

    /**
     * The window's quota spread over the window, in calls per second: {@code calls} over the window's length
     * plus {@link Leaves#HEADROOM_SECONDS}. Paced at this rate, {@code calls + 1} consecutive calls span the
     * window and half a second, so a window the provider opens at our first call (Resource Graph) or on its
     * clock (Cloud Asset's minutes) holds at most {@code calls} of them, give or take half a second of
     * network jitter. Only for a {@linkplain #sized() sized} window.
     */
    public double spreadRps() {
        return calls * (double) Time.SECOND / (windowNanos + Leaves.HEADROOM_SECONDS * Time.SECOND);
    }
}
