package io.cloudg.run;

import java.util.Arrays;

/**
 * The ETA of a progress line as a pure function: {@link #step}{@code (state, now, input, config)} gives the next
 * state and the estimate; the caller keeps the state (a progress line's one field) and the clock (the governor's
 * {@code TimeSource}), so that a synthetic progress trace replays exactly.
 *
 * <p>What it models. A map's calls left are known well from a quarter of the run on, even in a first map
 * ({@link WorkLeft}); what is not steady is the rate. A map's JVM keeps meeting SDK operations it has not run
 * yet (the jobs go collector by collector), so the calls per second climb for most of a short map (4-27x over a
 * 200 x 4 map, measured in BENCHMARKS.md, "The ETA"), and a rate ETA overshoots by as much; a first map has no
 * previous duration to lean on. So:
 * <ul>
 *   <li>the climb is measured on the run's own calls: the rate over the second half of the calls made against the
 *       rate over the quarter before, as a power of the calls made ({@code rate ~ calls^b}, {@code b} between 0
 *       and {@link Config#maxExponent}); a steady run (latency-bound, or warm) measures {@code b = 0} and its ETA
 *       is the calls left at the rate;</li>
 *   <li>the rate now is the rate over a window that adapts to the run: the last half of the calls made while that
 *       is short (a young map, whose rate moves), at most {@link Config#maxWindowSeconds} (a long map follows a
 *       change of its CPU share within a minute), at least {@link Config#minWindowSeconds}; taken forward from
 *       the window's middle to now along the climb;</li>
 *   <li>the light calls left then take the time the climbing rate needs for them, the climb capped at
 *       {@link Config#maxClimb} times the rate now (a warm-up ends); the quotas' bound and the previous map's
 *       duration come in as before ({@link Eta#seconds}, {@link Eta#withPrior}).</li>
 * </ul>
 * Memory: the points of the last {@code 2 x maxWindowSeconds}, and before that one point per
 * {@link Config#spacing} growth of the calls made (a few hundred points for any run).
 */
public final class EtaModel {
    private EtaModel() {
    }

    /**
     * The model's settings.
     *
     * @param minWindowSeconds the shortest window the rate is measured over (a log line comes every 10 s)
     * @param maxWindowSeconds the longest
     * @param maxExponent the steepest climb believed: {@code rate ~ calls^maxExponent}
     * @param maxClimb how many times the rate now the climb may take the rate to
     * @param spacing the growth of the calls made between two points kept beyond the recent ones
     */
    public record Config(double minWindowSeconds, double maxWindowSeconds, double maxExponent, double maxClimb,
                         double spacing) {
        public static final Config DEFAULTS = new Config(10, 60, 0.7, 4, 1.05);

        public Config {
            if (!(minWindowSeconds > 0) || !(maxWindowSeconds >= minWindowSeconds)) {
                throw new IllegalArgumentException("the ETA's windows must be 0 < min <= max, but were min "
                        + minWindowSeconds + " s and max " + maxWindowSeconds + " s");
            }
            if (!(maxExponent >= 0 && maxExponent < 1) || !(maxClimb >= 1) || !(spacing > 1)) {
                throw new IllegalArgumentException("the ETA needs 0 <= maxExponent < 1, maxClimb >= 1 and spacing > 1, "
                        + "but they were " + maxExponent + ", " + maxClimb + " and " + spacing);
            }
        }
    }

    /**
     * A moment of the run, as the progress line sees it.
     *
     * @param lightCallsMade the calls made other than the quota-paced heavy jobs' ({@link WorkLeft.Snapshot})
     * @param lightCallsLeft the light calls expected still
     * @param quotaSeconds what the quotas alone still need
     * @param done the share of the expected calls done, 0 to 1
     * @param priorSeconds how long the previous map of the estate ran, or NaN
     * @param elapsedSeconds how long this map has run
     */
    public record Input(long lightCallsMade, long lightCallsLeft, double quotaSeconds, double done,
                        double priorSeconds, double elapsedSeconds) {
        /** The moment {@code w} of a run that has run {@code elapsedSeconds}, after a previous map of {@code priorSeconds}. */
        public static Input of(WorkLeft.Snapshot w, double priorSeconds, double elapsedSeconds) {
            return new Input(w.lightCallsMade(), w.lightCallsLeft(), w.quotaSeconds(), w.fraction(), priorSeconds,
                    elapsedSeconds);
        }
    }

    /**
     * The light calls made at past moments: {@code at[i]} (epoch millis) and {@code calls[i]}, oldest first,
     * both growing. Immutable.
     */
    public static final class State {
        public static final State EMPTY = new State(new long[0], new long[0]);

        private final long[] at;
        private final long[] calls;

        private State(long[] at, long[] calls) {
            this.at = at;
            this.calls = calls;
        }

        /** How many points it keeps. */
        public int size() {
            return at.length;
        }
    }

    /**
     * The estimate at a step.
     *
     * @param seconds the ETA, NaN while not known
     * @param rate the light calls per second now (NaN before two points)
     * @param exponent the climb measured ({@code b}; 0 when steady or not known)
     * @param steadySeconds what the rate now alone says (no climb), NaN while not known
     */
    public record Estimate(double seconds, double rate, double exponent, double steadySeconds) {
    }

    /** The next state and the estimate. */
    public record Step(State state, Estimate estimate) {
    }

    /** Notes {@code in} at {@code now} (epoch millis) and estimates the time left. */
    public static Step step(State state, long now, Input in, Config config) {
        State s = record(state, now, Math.max(0, in.lightCallsMade()), config);
        Estimate light = light(s, Math.max(0, in.lightCallsLeft()), config);
        double observed = Eta.seconds(in.lightCallsLeft(), light.rate(), in.quotaSeconds());
        double climbing = Double.isNaN(light.seconds()) ? observed : Math.max(light.seconds(), in.quotaSeconds());
        // no rate yet for the light calls left: nothing says this map goes faster than the previous one
        double steady = in.lightCallsLeft() <= 0 ? Math.max(0, in.quotaSeconds())
                : Math.max(light.steadySeconds(), in.quotaSeconds());
        double eta = Eta.withPrior(climbing, steady, in.priorSeconds(), in.elapsedSeconds(), in.done());
        return new Step(s, new Estimate(eta, light.rate(), light.exponent(), steady));
    }

    /** The state with the point ({@code now}, {@code calls}) added, the points beyond the recent span thinned. */
    static State record(State s, long now, long calls, Config c) {
        int n = s.at.length;
        if (n > 0 && now <= s.at[n - 1]) {
            return s; // the clock did not move: nothing new
        }
        if (n > 0) {
            // the light calls are the calls less an estimate of the heavy jobs': a count that goes back is held
            calls = Math.max(calls, s.calls[n - 1]);
        }
        long recent = now - Math.round(2 * c.maxWindowSeconds() * 1000);
        long[] at = new long[n + 1];
        long[] cs = new long[n + 1];
        int k = 0;
        for (int i = 0; i < n; i++) {
            // the first point, every recent one, and beyond the recent span one per spacing of growth
            if (k == 0 || s.at[i] >= recent || (s.calls[i] > cs[k - 1] && s.calls[i] >= c.spacing() * cs[k - 1])) {
                at[k] = s.at[i];
                cs[k] = s.calls[i];
                k++;
            }
        }
        at[k] = now;
        cs[k] = calls;
        k++;
        return new State(Arrays.copyOf(at, k), Arrays.copyOf(cs, k));
    }

    /**
     * The time the light calls left need at the climbing rate, from the points of {@code s}, the last of which
     * is now.
     */
    static Estimate light(State s, long left, Config c) {
        int n = s.at.length;
        if (n < 2) {
            return new Estimate(Double.NaN, Double.NaN, 0, Double.NaN);
        }
        long now = s.at[n - 1];
        double made = s.calls[n - 1];
        // the climb: the rate over the second half of the calls made against the quarter before
        double b = 0;
        double tHalf = timeAt(s, made / 2);
        double tQuarter = timeAt(s, made / 4);
        if (made > 0 && now - tHalf > 0 && tHalf - tQuarter > 0 && tQuarter >= s.at[0]) {
            double late = (made / 2) / (now - tHalf);
            double early = (made / 4) / (tHalf - tQuarter);
            b = Math.max(0, Math.min(c.maxExponent(), Math.log(late / early) / Math.log(2)));
        }
        // the rate now: over the last half of the calls made, within [min, max] window seconds
        double from = Double.isNaN(tHalf) ? s.at[0] : tHalf;
        from = Math.max(from, now - c.maxWindowSeconds() * 1000);
        from = Math.min(from, now - c.minWindowSeconds() * 1000);
        from = Math.max(from, s.at[0]);
        if (now - from <= 0) {
            return new Estimate(Double.NaN, Double.NaN, 0, Double.NaN);
        }
        double fromCalls = callsAt(s, from);
        double windowRate = (made - fromCalls) / ((now - from) / 1000.0);
        double middle = (made + fromCalls) / 2;
        double rate = b > 0 && middle > 0 ? windowRate * Math.pow(made / middle, b) : windowRate;
        if (!(rate > 0)) {
            return new Estimate(left <= 0 ? 0 : Double.NaN, rate, b, left <= 0 ? 0 : Double.NaN);
        }
        double steady = left / rate;
        return new Estimate(climb(made, left, rate, b, c.maxClimb()), rate, b, steady);
    }

    /**
     * The seconds {@code left} calls take from {@code made} made, the rate {@code rate} now and growing as
     * {@code calls^b}, up to {@code maxClimb} times the rate now.
     */
    static double climb(double made, double left, double rate, double b, double maxClimb) {
        if (left <= 0) {
            return 0;
        }
        if (b <= 1e-9 || made <= 0) {
            return left / rate;
        }
        double end = made + left;
        double capAt = made * Math.pow(maxClimb, 1 / b); // where the climb stops
        double x = Math.min(end, capAt);
        double t = made / (rate * (1 - b)) * (Math.pow(x / made, 1 - b) - 1);
        if (end > capAt) {
            t += (end - capAt) / (rate * maxClimb);
        }
        return t;
    }

    /** When the calls made reached {@code calls} (interpolated); NaN when before the first point. */
    static double timeAt(State s, double calls) {
        int n = s.at.length;
        if (calls < s.calls[0]) {
            return Double.NaN;
        }
        for (int i = 1; i < n; i++) {
            if (s.calls[i] >= calls) {
                long c0 = s.calls[i - 1];
                long c1 = s.calls[i];
                // a flat stretch: the last moment the count was still below
                return c1 == c0 ? s.at[i - 1]
                        : s.at[i - 1] + (s.at[i] - s.at[i - 1]) * (calls - c0) / (double) (c1 - c0);
            }
        }
        return s.at[n - 1];
    }

    /** The calls made at {@code time} (interpolated, within the points). */
    static double callsAt(State s, double time) {
        int n = s.at.length;
        if (time <= s.at[0]) {
            return s.calls[0];
        }
        for (int i = 1; i < n; i++) {
            if (s.at[i] >= time) {
                return s.calls[i - 1] + (s.calls[i] - s.calls[i - 1]) * (time - s.at[i - 1])
                        / (double) (s.at[i] - s.at[i - 1]);
            }
        }
        return s.calls[n - 1];
    }
}
