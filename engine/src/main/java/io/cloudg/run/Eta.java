package io.cloudg.run;

import java.util.Locale;

/** The ETA of a progress line, from what is left ({@link WorkLeft}) and the rate calls are being made at. */
public final class Eta {
    private Eta() {
    }

    /**
     * The seconds left: the calls left at the rate calls are being made, or what the quotas alone still
     * need, whichever is longer; NaN while neither is known (no calls yet).
     */
    public static double seconds(long callsLeft, double callsPerSecond, double quotaSeconds) {
        if (callsLeft <= 0) {
            return Math.max(0, quotaSeconds);
        }
        if (!(callsPerSecond > 0)) {
            return quotaSeconds > 0 ? quotaSeconds : Double.NaN;
        }
        return Math.max(callsLeft / callsPerSecond, quotaSeconds);
    }

    /** {@code m:ss}, {@code h:mm:ss}, or {@code --:--} when not known. */
    public static String clock(double seconds) {
        if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
            return "--:--";
        }
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
