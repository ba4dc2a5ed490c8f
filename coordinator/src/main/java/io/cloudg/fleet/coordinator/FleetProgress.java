package io.cloudg.fleet.coordinator;

import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The coordinator's progress line: tasks done of total, workers busy, assets, calls per second over the
 * fleet (since this coordinator started following the run: a resumed run's earlier calls do not count),
 * retries, duplicates dropped, and an ETA from the rate tasks have been finishing at, or {@code waiting for
 * workers} while none is busy:
 * {@code [120/480 tasks] 3 workers busy, 5230 assets, 212.4 calls/s, 2 retried, 1 duplicate dropped, ETA 3:10}.
 */
public final class FleetProgress {
    /** The numbers of one moment of a run. */
    public record Snapshot(int done, int total, int busyWorkers, long assets, long calls, int retries, long duplicates,
                           int failed) {
    }

    private final TimeSource time;
    private final Duration interval;
    private final Consumer<String> out;
    private final long started;
    private long lastAt;
    private long lastCalls;
    private double callRate;
    private boolean primed;
    private int doneAtStart;

    public FleetProgress(TimeSource time, Duration interval, Consumer<String> out) {
        this.time = time;
        this.interval = interval;
        this.out = out;
        this.started = time.epochMillis();
        this.lastAt = started;
    }

    private static final java.util.regex.Pattern LINE = java.util.regex.Pattern.compile("\\[\\d+/\\d+ tasks\\] .*");

    /** Whether {@code line} is one of this class's progress lines (not another notice of the coordinator). */
    public static boolean isProgressLine(String line) {
        return LINE.matcher(line).matches();
    }

    /** Prints a line when the interval has passed since the last one. */
    public void tick(Snapshot s) {
        prime(s);
        if (time.epochMillis() - lastAt >= interval.toMillis()) {
            print(s);
        }
    }

    /** Prints the closing line, whenever the last one was. */
    public void last(Snapshot s) {
        prime(s);
        print(s);
    }

    /** The first snapshot: what was done before this coordinator followed the run is no rate of ours. */
    private void prime(Snapshot s) {
        if (!primed) {
            primed = true;
            lastCalls = s.calls();
            doneAtStart = s.done();
        }
    }

    private void print(Snapshot s) {
        long now = time.epochMillis();

        double dt = Math.max(0.001, (now - lastAt) / 1000.0);
        double rate = (s.calls() - lastCalls) / dt;
        callRate = callRate == 0 ? rate : 0.6 * callRate + 0.4 * rate;
        lastCalls = s.calls();
        lastAt = now;
        out.accept(line(s, now));
    }

    String line(Snapshot s, long now) {
        return String.format(Locale.ROOT, "[%d/%d tasks] %d worker%s busy, %d assets, %.1f calls/s, %d retried, "
                        + "%d duplicate%s dropped%s, ETA %s", s.done(), s.total(), s.busyWorkers(),
                s.busyWorkers() == 1 ? "" : "s", s.assets(), callRate, s.retries(), s.duplicates(),
                s.duplicates() == 1 ? "" : "s", s.failed() == 0 ? "" : ", " + s.failed() + " failed",
                s.busyWorkers() == 0 && s.done() < s.total() ? "waiting for workers"
                        : eta(s.done() - doneAtStart, s.total() - doneAtStart, (now - started) / 1000.0));
    }

    /** Remaining time at the average rate so far: {@code m:ss}, {@code h:mm:ss}, or {@code --:--} before any task. */
    static String eta(int done, int total, double elapsedSeconds) {
        if (total > 0 && done >= total) {
            return "0:00";
        }
        if (done == 0 || elapsedSeconds <= 0) {
            return "--:--";
        }
        long s = Math.round(elapsedSeconds / done * (total - done));
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
