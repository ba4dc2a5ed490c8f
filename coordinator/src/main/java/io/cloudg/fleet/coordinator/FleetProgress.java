package io.cloudg.fleet.coordinator;

import io.cloudg.resilience.time.TimeSource;
import io.cloudg.run.Eta;
import io.cloudg.run.EtaModel;
import io.cloudg.run.RateMeter;
import io.cloudg.run.WorkLeft;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The coordinator's progress line: collector jobs done of total and what share of them that is (the unit that
 * finishes steadily: a run of a thousand account x regions cut into many tasks moves on every task's end), tasks
 * done of total, workers busy, tasks failed (when any), calls per second over the fleet (since this coordinator
 * started following the run: a resumed run's earlier calls do not count), assets, retries, duplicates dropped,
 * and an ETA from the calls left ({@link WorkLeft}): the light calls left at the rate light calls are reported,
 * taken along the climb that rate is on ({@link EtaModel}, as a one-process map's line), or what the quotas alone
 * still need for the heavy jobs, whichever is longer; {@code waiting for workers} while none is busy:
 * {@code [1234/6240 jobs (19%); 120/480 tasks] 3 workers busy, 212.4 calls/s, 5230 assets, 2 retried,
 * 1 duplicate dropped, ETA 3:10}. The fields after the brackets are listed most important first and the ETA
 * last: a terminal too narrow for the line drops them from the least important.
 */
public final class FleetProgress {
    /** The numbers of one moment of a run. */
    public record Snapshot(int done, int total, int busyWorkers, long assets, long calls, int retries, long duplicates,
                           int failed, WorkLeft.Snapshot work) {
    }

    /** The calls-per-second figure follows about this many seconds of the run. */
    static final double RATE_TAU_SECONDS = 30;

    private final TimeSource time;
    private final Duration interval;
    private final Consumer<String> out;
    private final RateMeter rate = new RateMeter(RATE_TAU_SECONDS);
    /** The ETA model is fed at most this often (the coordinator ticks on every poll, 5 times a second). */
    static final long SAMPLE_MILLIS = 1_000;

    /** The light calls (other than the heavy jobs') made over the run: what the light calls left go at. */
    private EtaModel.State etaState = EtaModel.State.EMPTY;
    private EtaModel.Estimate estimate = new EtaModel.Estimate(Double.NaN, Double.NaN, 0, Double.NaN);
    private long sampledAt;
    private final long startedAt;
    private long lastAt;

    public FleetProgress(TimeSource time, Duration interval, Consumer<String> out) {
        this.time = time;
        this.interval = interval;
        this.out = out;
        this.lastAt = time.epochMillis();
        this.startedAt = lastAt;
        this.sampledAt = startedAt - SAMPLE_MILLIS; // the first tick samples
    }

    private static final java.util.regex.Pattern LINE = java.util.regex.Pattern.compile("\\[\\d+/\\d+ jobs \\(\\d+%\\); \\d+/\\d+ tasks\\] .*");

    /** Whether {@code line} is one of this class's progress lines (not another notice of the coordinator). */
    public static boolean isProgressLine(String line) {
        return LINE.matcher(line).matches();
    }

    /** Notes the calls so far, and prints a line when the interval has passed since the last one. */
    public void tick(Snapshot s) {
        long now = time.epochMillis();
        measure(s, now);
        if (now - lastAt >= interval.toMillis()) {
            print(s, now);
        }
    }

    /** Prints the closing line, whenever the last one was. */
    public void last(Snapshot s) {
        long now = time.epochMillis();
        measure(s, now);
        print(s, now);
    }

    private void measure(Snapshot s, long now) {
        rate.update(s.calls(), now);
        if (now - sampledAt >= SAMPLE_MILLIS) {
            sampledAt = now;
            // a fleet run has no previous duration to lean on: the coordinator's plan is sized, not timed
            EtaModel.Step step = EtaModel.step(etaState, now,
                    EtaModel.Input.of(s.work(), Double.NaN, (now - startedAt) / 1000.0), EtaModel.Config.DEFAULTS);
            etaState = step.state();
            estimate = step.estimate();
        }
    }

    private void print(Snapshot s, long now) {
        lastAt = now;
        out.accept(line(s));
    }

    String line(Snapshot s) {
        double cps = Double.isNaN(rate.rate()) ? 0 : rate.rate();
        WorkLeft.Snapshot w = s.work();
        String eta;
        if (s.total() > 0 && s.done() >= s.total()) {
            eta = "0:00";
        } else if (s.busyWorkers() == 0) {
            eta = "waiting for workers";
        } else {
            eta = Eta.clock(estimate.seconds());
        }
        return String.format(Locale.ROOT, "[%d/%d jobs (%d%%); %d/%d tasks] %d worker%s busy%s, %.1f calls/s, %d assets, "
                        + "%d retried, %d duplicate%s dropped, ETA %s", w.jobsDone(), w.jobsTotal(), w.jobsPercent(),
                s.done(), s.total(), s.busyWorkers(), s.busyWorkers() == 1 ? "" : "s",
                s.failed() == 0 ? "" : ", " + s.failed() + " failed", cps, s.assets(), s.retries(), s.duplicates(),
                s.duplicates() == 1 ? "" : "s", eta);
    }

}
