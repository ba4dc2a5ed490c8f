package io.cloudg.run;

import java.util.Locale;

/**
 * The ETA of a progress line, from what is left ({@link WorkLeft}) and the rate calls are being made at, and, for an
 * estate mapped before into the same output directory, from how long that map took ({@link #withPrior}).
 */
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

    /**
     * The ETA of a map whose previous map of the same estate took {@code priorSeconds}: what the previous map says
     * is left (its duration less the time this map has run), or {@code observed} (the rate ETA, {@link #seconds}).
     * A map's rate is not steady: the JVM compiles the SDK's code during the first minutes, and the calls per second
     * climb several times over, so early on the rate ETA overshoots by as much (measured in BENCHMARKS.md, "The
     * ETA"); the previous map went through the same climb. So:
     * <ul>
     *   <li>when the rate ETA is the shorter, and so is the mean pace's ETA (the time run so far for the share
     *       done, scaled to the share left), this map goes faster than the previous one did (a machine less
     *       loaded), and the rate ETA is the ETA; a map that climbs as the previous one did is slow in its first
     *       part, so its mean pace says more than the previous map does, and the rate alone, whose climb can make
     *       it undershoot then, does not decide;</li>
     *   <li>when it is the longer (the climb, or a map slower than the last), the two are blended geometrically
     *       (their errors are ratios, and a rate ETA early in a run can be a hundred times too long: a small weight
     *       must not let it through), the rate ETA's weight being the square of the share of the work done, or,
     *       once this map runs longer than the previous one would have (which then stops being a guide), the fourth
     *       power of the time run over the previous map's, whichever is larger: all the rate's once this map has
     *       run as long as the previous one.</li>
     * </ul>
     *
     * @param observed the rate ETA, or NaN when there is none yet
     * @param priorSeconds how long the previous map ran; NaN when there is none (then {@code observed})
     * @param elapsedSeconds how long this map has run
     * @param done the share of the expected calls done, 0 to 1
     */
    public static double withPrior(double observed, double priorSeconds, double elapsedSeconds, double done) {
        double d = Math.max(0, Math.min(1, done));
        double meanPace = d > 0 ? Math.max(0, elapsedSeconds) * (1 - d) / d : Double.POSITIVE_INFINITY;
        return withPrior(observed, meanPace, priorSeconds, elapsedSeconds, done);
    }

    /**
     * As {@link #withPrior(double, double, double, double)}, with {@code pace} in place of the mean pace as the
     * second witness that this map goes faster than the previous one: {@link EtaModel}'s ETA at the rate now,
     * without the climb it projects ({@code observed} is with it). The rate now is past the slow start that the
     * mean pace carries, and it is not the projection whose error the previous map's word is there to hold back.
     * NaN (no rate yet) says nothing: the blend.
     */
    public static double withPrior(double observed, double pace, double priorSeconds, double elapsedSeconds,
                                   double done) {
        if (!(priorSeconds > 0)) {
            return observed;
        }
        double d = Math.max(0, Math.min(1, done));
        double prior = Math.max(0, priorSeconds - elapsedSeconds);
        if (Double.isNaN(observed) || Double.isInfinite(observed)) {
            // no rate yet: the previous map's word, or once past its duration, its mean pace for the rest
            return prior > 0 ? prior : priorSeconds * (1 - d);
        }
        double w = Math.max(d * d, Math.pow(Math.min(1, Math.max(0, elapsedSeconds) / priorSeconds), 4));
        if (w >= 1 || (observed <= prior && pace <= prior)) {
            return observed;
        }
        // in logs, each at least a second (an ETA of 0 would take the blend to 0 whatever the other said)
        return Math.exp((1 - w) * Math.log(Math.max(1, prior)) + w * Math.log(Math.max(1, observed)));
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
