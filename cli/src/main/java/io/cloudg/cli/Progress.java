package io.cloudg.cli;

import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.TaskRunner;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.Counts;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a long map's progress: tasks done / total, calls per second, throttles, ETA. On a terminal, one
 * status line redrawn in place twice a second through the {@link ConsoleLine} the log lines share (they
 * print above it, never into it); otherwise a plain log line every ten seconds.
 */
final class Progress implements TaskRunner.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.progress");

    private final Governor governor;
    private final ConsoleLine term;
    private final ScheduledExecutorService ticker;
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger total = new AtomicInteger();
    private final long started;
    private long lastCalls;
    private long lastAt;
    private double callsPerSecond;
    Progress(Governor governor, ConsoleLine console, boolean tty) {
        this.governor = governor;
        this.started = governor.time().nanoTime();
        this.lastAt = started;
        this.term = tty ? console : null;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloudg-progress");
            t.setDaemon(true);
            return t;
        });
        long period = tty ? 500 : 10_000;
        ticker.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void taskDone(CollectionTask task, CoverageRecord record, int d, int n) {
        done.set(d);
        total.set(n);
    }

    private synchronized void tick() {
        Counts c = governor.stats().totals();
        long now = governor.time().nanoTime();
        double dt = (now - lastAt) / 1e9;
        if (dt > 0) {
            double rate = (c.calls() - lastCalls) / dt;
            callsPerSecond = callsPerSecond == 0 ? rate : 0.6 * callsPerSecond + 0.4 * rate;
        }
        lastCalls = c.calls();
        lastAt = now;
        String line = line(c, now);
        if (term != null) {
            term.status(line);
        } else {
            LOG.info("progress: {}", line);
        }
    }

    private String line(Counts c, long now) {
        int d = done.get();
        int n = total.get();
        double elapsed = (now - started) / 1e9;
        String eta = "--:--";
        if (d > 0 && n > d) {
            eta = clock(elapsed / d * (n - d));
        } else if (n > 0 && d == n) {
            eta = "0:00";
        }
        return String.format(Locale.ROOT, "[%d/%s tasks] %.1f calls/s, %d calls, %d throttled, %d retries, ETA %s",
                d, n == 0 ? "?" : Integer.toString(n), callsPerSecond, c.calls(), c.throttled(), c.retries(), eta);
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    @Override
    public synchronized void close() {
        ticker.shutdownNow();
        if (term != null) {
            term.clear();
        }
    }
}
