package io.cloudg.cli;

import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.JobCost;
import io.cloudg.collect.TaskRunner;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.Counts;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.Eta;
import io.cloudg.run.RateMeter;
import io.cloudg.run.WorkLeft;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a long map's progress: collector jobs done / total (the unit that finishes steadily, whatever the
 * sizes of the account x regions), the share of the expected calls made, calls per second, throttles, and
 * an ETA from the calls left ({@link WorkLeft}: the previous map's sizes, or what this run learns): the
 * light calls left at the rate light calls are being made, or what the quotas alone still need for the
 * heavy jobs (one call per AMI at EC2's 20 a second), whichever is longer:
 * {@code [61234/156400 jobs, 41%] 212.4 calls/s, 41023 calls, 0 throttled, 0 retries, ETA 3:10}.
 * On a terminal, one status line redrawn in place twice a second through the {@link ConsoleLine} the log lines
 * share (they print above it, never into it); otherwise a plain log line every ten seconds.
 */
final class Progress implements TaskRunner.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.progress");

    private final Governor governor;
    private final ConsoleLine term;
    private final ScheduledExecutorService ticker;
    private final RateMeter rate = new RateMeter(RATE_TAU_SECONDS);
    /** The rate of the calls other than the quota-paced heavy jobs': what the light calls left go at. */
    private final RateMeter lightRate = new RateMeter(RATE_TAU_SECONDS);
    /** Null until the runner says what it plans. */
    private volatile WorkLeft work;
    /** The calls made before the jobs (discovery): not the jobs' calls. */
    private volatile long callsBefore;

    /** The calls-per-second figure follows about this many seconds of the run. */
    static final double RATE_TAU_SECONDS = 20;

    Progress(Governor governor, ConsoleLine console, boolean tty) {
        this(governor, console, tty, true);
    }

    /** {@code ticking}: false for a test that calls {@link #line()} on its own clock. */
    Progress(Governor governor, ConsoleLine console, boolean tty, boolean ticking) {
        this.governor = governor;
        this.term = tty ? console : null;
        this.ticker = ticking ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloudg-progress");
            t.setDaemon(true);
            return t;
        }) : null;
        // the first line then shows the rate since the start, not a blank one (a log's first line is 10 s in)
        rate.update(governor.stats().totals().calls(), governor.time().epochMillis());
        long period = tty ? 500 : 10_000;
        if (ticker != null) {
            ticker.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void planned(List<CollectionTask> tasks, JobCost cost) {
        WorkLeft w = new WorkLeft(cost instanceof CallEstimates e ? e : CallEstimates.NONE,
                WorkLeft.Limits.of(governor.config()));
        for (CollectionTask t : tasks) {
            for (CollectorJob j : t.jobs()) {
                w.planned(t.provider(), t.accountId(), t.region(), j.service());
            }
        }
        callsBefore = governor.stats().totals().calls();
        work = w;
    }

    @Override
    public void jobStarted(CollectionTask task, CollectorJob job) {
        WorkLeft w = work;
        if (w != null) {
            w.started(task.provider(), task.accountId(), task.region(), job.service(), governor.time().epochMillis());
        }
    }

    @Override
    public void jobDone(CollectionTask task, CollectorJob job, ServiceCoverage entry) {
        WorkLeft w = work;
        if (w != null) {
            w.finished(task.provider(), task.accountId(), task.region(), job.service(), entry.assetCount());
        }
    }

    @Override
    public void taskDone(CollectionTask task, CoverageRecord record, int d, int n) {
        // jobs are counted (jobDone): an account x region ends only with its last job
    }

    private synchronized void tick() {
        String line = line();
        if (term != null) {
            term.status(line);
        } else {
            LOG.info("progress: {}", line);
        }
    }

    /** The line at the governor's present time (the rate is updated: call it once per tick). */
    synchronized String line() {
        Counts c = governor.stats().totals();
        long now = governor.time().epochMillis();
        double cps = rate.update(c.calls(), now);
        WorkLeft w = work;
        if (w == null) {
            return String.format(Locale.ROOT, "[planning] %.1f calls/s, %d calls, %d throttled, %d retries",
                    Double.isNaN(cps) ? 0 : cps, c.calls(), c.throttled(), c.retries());
        }
        WorkLeft.Snapshot s = w.snapshot(now, Math.max(0, c.calls() - callsBefore), true);
        double light = lightRate.update(s.lightCallsMade(), now);
        String eta = s.jobsTotal() > 0 && s.jobsDone() == s.jobsTotal() ? "0:00"
                : Eta.clock(Eta.seconds(s.lightCallsLeft(), light, s.quotaSeconds()));
        return String.format(Locale.ROOT, "[%d/%d jobs, %d%%] %.1f calls/s, %d calls, %d throttled, %d retries, ETA %s",
                s.jobsDone(), s.jobsTotal(), (int) Math.floor(100 * s.fraction()), Double.isNaN(cps) ? 0 : cps,
                c.calls(), c.throttled(), c.retries(), eta);
    }


    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        if (term != null) {
            term.clear();
        }
    }
}
