package io.cloudg.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link EtaModel} on synthetic progress traces: a run's light calls made, sampled every {@code tick} seconds
 * (a log line's 10 s), from a rate that is a function of the time and the calls made; the calls left known
 * exactly (what {@link WorkLeft} knows from a quarter of a run on). Each line's ETA is compared with the time
 * the trace really had left.
 */
class EtaModelTest {
    static final EtaModel.Config C = EtaModel.Config.DEFAULTS;

    /** A line of a replayed trace: when, the ETA, what the rate alone said, the time really left. */
    record Line(double at, double eta, double steady, double left, double exponent) {
        double error() {
            return (eta - left) / left;
        }

        double steadyError() {
            return (steady - left) / left;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "at %.0f s: ETA %.1f (rate alone %.1f, b %.2f), left %.1f, %+.0f%%", at,
                    eta, steady, exponent, left, 100 * error());
        }
    }

    /**
     * Plays {@code total} calls at {@code rate(seconds, callsMade)} calls a second (integrated in 10 ms steps),
     * a line every {@code tick} seconds; {@code prior}: the previous map's duration, or NaN.
     */
    static List<Line> replay(long total, double tick, DoubleBinaryOperator rate, double prior) {
        List<double[]> points = new ArrayList<>(); // at, made
        double t = 0;
        double made = 0;
        double nextTick = 0;
        while (made < total) {
            if (t >= nextTick) {
                points.add(new double[] {t, made});
                nextTick += tick;
            }
            made = Math.min(total, made + rate.applyAsDouble(t, made) * 0.01);
            t += 0.01;
        }
        double end = t;
        EtaModel.State s = EtaModel.State.EMPTY;
        List<Line> lines = new ArrayList<>();
        for (double[] p : points) {
            long m = Math.round(p[1]);
            EtaModel.Step step = EtaModel.step(s, Math.round(p[0] * 1000), new EtaModel.Input(m, total - m, 0,
                    (double) m / total, prior, p[0]), C);
            s = step.state();
            lines.add(new Line(p[0], step.estimate().seconds(), step.estimate().steadySeconds(), end - p[0],
                    step.estimate().exponent()));
        }
        return lines;
    }

    static double end(List<Line> lines) {
        Line l = lines.get(lines.size() - 1);
        return l.at() + l.left();
    }

    /** The lines from {@code share} of the run on (the last 10 s left out) whose ETA is off by more than 25%. */
    static List<Line> off(List<Line> lines, double share) {
        double end = end(lines);
        return lines.stream().filter(l -> l.at() >= share * end && l.left() >= 10)
                .filter(l -> !(Math.abs(l.error()) <= 0.25)).toList();
    }

    @Test
    void aConfigOutOfRangeIsRefusedNamingItsValues() {
        assertThatThrownBy(() -> new EtaModel.Config(20, 10, 0.7, 4, 1.05))
                .hasMessageContaining("0 < min <= max").hasMessageContaining("min 20.0 s and max 10.0 s");
        assertThatThrownBy(() -> new EtaModel.Config(10, 60, 1.2, 4, 1.05))
                .hasMessageContaining("but they were 1.2, 4.0 and 1.05");
    }

    @Test
    void aSteadyRunIsTheCallsLeftAtTheRate() {
        List<Line> lines = replay(60_000, 10, (t, n) -> 500, Double.NaN);
        assertThat(lines.get(0).eta()).as("one point: no rate yet").isNaN();
        for (Line l : lines.subList(1, lines.size())) {
            assertThat(l.exponent()).as(l.toString()).isZero();
            assertThat(l.eta()).as(l.toString()).isCloseTo(l.left(), within(0.02 * l.left() + 0.1));
        }
    }

    /**
     * The first map that failed (BENCHMARKS.md, "The ETA": +28% at 30% of a first 200 x 4 map; +113% at 25% in
     * a noisier run): the rate climbs all run long, about as the square root of the calls made (the JVM meets
     * each collector's SDK operations for the first time in turn), from 250 to about 1,600 calls a second over
     * 130,000 calls. The rate alone overshoots the time left by more than a quarter at a quarter of the run; the
     * climb, measured on the run's own calls, brings every line from a quarter of the run on within 25%.
     */
    @Test
    void aFirstMapWhoseRateClimbsAllRunLong() {
        List<Line> lines = replay(130_000, 10, (t, n) -> 250 * Math.sqrt(Math.max(1, n) / 3_000.0) + 50, Double.NaN);
        double end = end(lines);
        Line quarter = lines.stream().filter(l -> l.at() >= end / 4).findFirst().orElseThrow();
        assertThat(quarter.steadyError()).as("the rate alone: %s", quarter).isGreaterThan(0.25);
        assertThat(quarter.exponent()).as("the climb measured").isBetween(0.3, 0.7);
        assertThat(off(lines, 0.25)).as("%s", lines).isEmpty();
    }

    /**
     * A JVM that warms up over its first minutes and is then warm (the rate climbs fourfold towards its ceiling,
     * 1 - e^(-t/30 s)): the climb is measured while it lasts and no longer once the rate holds, so that the ETA
     * does not run on with a climb that ended.
     */
    @Test
    void aClimbThatEndsIsNotProjectedBeyondIt() {
        List<Line> lines = replay(400_000, 10, (t, n) -> 1_200 - 900 * Math.exp(-t / 30), Double.NaN);
        assertThat(off(lines, 0.25)).as("%s", lines).isEmpty();
        double end = end(lines);
        assertThat(lines.stream().filter(l -> l.at() >= 0.6 * end && l.left() >= 10))
                .allSatisfy(l -> assertThat(l.exponent()).as(l.toString()).isLessThan(0.05));
    }

    /**
     * A long steady run whose CPU share halves at 40% of it (other builds start on a shared machine): the rate is
     * measured over at most a minute, so the ETA follows the new share within a minute and a half.
     */
    @Test
    void aLongRunFollowsAChangeOfItsCpuShareWithinAMinuteAndAHalf() {
        List<Line> lines = replay(1_000_000, 10, (t, n) -> n < 400_000 ? 1_000 : 500, Double.NaN);
        double shift = 400;
        assertThat(lines.stream().filter(l -> l.at() >= shift + 90 && l.left() >= 10))
                .allSatisfy(l -> assertThat(Math.abs(l.error())).as(l.toString()).isLessThanOrEqualTo(0.1));
        assertThat(lines.stream().filter(l -> l.at() < shift && l.at() >= 20))
                .allSatisfy(l -> assertThat(l.exponent()).as(l.toString()).isZero());
    }

    /** A second map as slow as the first leans on the first's duration while its climb is young. */
    @Test
    void aSecondMapLeansOnThePreviousDurationEarly() {
        DoubleBinaryOperator climb = (t, n) -> 250 * Math.sqrt(Math.max(1, n) / 3_000.0) + 50;
        double first = end(replay(130_000, 10, climb, Double.NaN));
        List<Line> second = replay(130_000, 10, climb, first);
        assertThat(off(second, 0.1)).as("%s", second).isEmpty();
    }

    /**
     * A second map twice as fast as the first (the machine less loaded): once the rate now, without any climb,
     * says less than the previous map does, the ETA is the model's; within 25% from a quarter of the run on.
     */
    @Test
    void aSecondMapFasterThanTheFirstGoesByItsOwnRate() {
        DoubleBinaryOperator climb = (t, n) -> 250 * Math.sqrt(Math.max(1, n) / 3_000.0) + 50;
        double first = end(replay(130_000, 10, climb, Double.NaN));
        List<Line> second = replay(130_000, 10, (t, n) -> 2 * climb.applyAsDouble(t, n), first);
        assertThat(off(second, 0.25)).as("%s", second).isEmpty();
    }

    @Test
    void theClimbIsCappedAndTheTimeIsTheIntegralOfTheRate() {
        assertThat(EtaModel.climb(1_000, 3_000, 100, 0, 4)).isEqualTo(30);
        // rate 100 * (n / 1000)^0.5 from 1,000 to 4,000: 2 * sqrt(1000) * (sqrt(4000) - sqrt(1000)) / 100 = 20 s
        assertThat(EtaModel.climb(1_000, 3_000, 100, 0.5, 4)).isCloseTo(20, within(1e-9));
        // capped at twice the rate now (reached at 4,000 calls): 20 s, then 4,000 more at 200 a second
        assertThat(EtaModel.climb(1_000, 7_000, 100, 0.5, 2)).isCloseTo(40, within(1e-9));
        assertThat(EtaModel.climb(1_000, 0, 100, 0.5, 4)).isZero();
    }

    /** A pure function: a state is never changed, the same inputs give the same step, memory stays small. */
    @Test
    void aStepIsPureAndTheStateStaysSmall() {
        EtaModel.State s = EtaModel.State.EMPTY;
        EtaModel.Input in = new EtaModel.Input(0, 1_000, 0, 0, Double.NaN, 0);
        EtaModel.Step a = EtaModel.step(s, 0, in, C);
        assertThat(s.size()).isZero();
        assertThat(a.state().size()).isEqualTo(1);
        EtaModel.Input later = new EtaModel.Input(100, 900, 0, 0.1, Double.NaN, 10);
        assertThat(EtaModel.step(a.state(), 10_000, later, C).estimate())
                .isEqualTo(EtaModel.step(a.state(), 10_000, later, C).estimate());
        assertThat(a.state().size()).as("unchanged by the steps taken from it").isEqualTo(1);
        assertThat(EtaModel.step(a.state(), 0, later, C).state()).as("the clock did not move").isSameAs(a.state());

        // ten hours of a terminal's two lines a second
        EtaModel.State big = EtaModel.State.EMPTY;
        long made = 0;
        for (long ms = 0; ms <= 10 * 3_600_000L; ms += 500) {
            made += 300;
            big = EtaModel.step(big, ms, new EtaModel.Input(made, 1_000_000_000L, 0, 0.5, Double.NaN, ms / 1000.0), C)
                    .state();
        }
        assertThat(big.size()).as("the recent points and about one per 5% of growth").isLessThan(600);
    }

    @Test
    void theRatesWindowIsTheLastHalfOfTheCallsTakenForwardAlongTheClimb() {
        // 1 call/s for 100 s, then 2/s: at 130 s 160 made; the last half (80) from 80 s on at 1.6/s, the quarter
        // before (40 to 80) at 1/s: b = log2(1.6)
        EtaModel.State s = EtaModel.State.EMPTY;
        for (int t = 0; t <= 130; t += 10) {
            long made = t <= 100 ? t : 100 + 2L * (t - 100);
            s = EtaModel.step(s, t * 1000L, new EtaModel.Input(made, 1_000, 0, 0.5, Double.NaN, t), C).state();
        }
        EtaModel.Estimate e = EtaModel.light(s, 1_000, C);
        double b = Math.log(1.6) / Math.log(2);
        assertThat(e.exponent()).isCloseTo(b, within(1e-9));
        assertThat(e.rate()).as("1.6/s at the window's middle (120 calls), taken to 160")
                .isCloseTo(1.6 * Math.pow(160 / 120.0, b), within(1e-9));
        assertThat(e.steadySeconds()).isCloseTo(1_000 / e.rate(), within(1e-9));
        assertThat(e.seconds()).isCloseTo(EtaModel.climb(160, 1_000, e.rate(), b, C.maxClimb()), within(1e-9))
                .isLessThan(e.steadySeconds());

        // a long run: the window is the last minute, however many calls that is
        s = EtaModel.State.EMPTY;
        for (int t = 0; t <= 600; t += 10) {
            long made = t <= 500 ? 100L * t : 50_000 + 50L * (t - 500);
            s = EtaModel.step(s, t * 1000L, new EtaModel.Input(made, 100_000, 0, 0.5, Double.NaN, t), C).state();
        }
        EtaModel.Estimate late = EtaModel.light(s, 100_000, C);
        assertThat(late.rate()).as("the last minute's 50/s, not the last half of the calls' 85/s").isCloseTo(50, within(1e-9));
        assertThat(late.exponent()).as("slower: no climb").isZero();
    }
}
