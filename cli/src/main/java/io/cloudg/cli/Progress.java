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
import io.cloudg.run.EtaModel;
import io.cloudg.run.RateMeter;
import io.cloudg.run.WorkLeft;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Shows a long map's progress: collector jobs done of the total and what share of them that is (the unit that
 * finishes steadily, whatever the sizes of the account x regions), calls per second, throttles, retries, calls
 * made, and an ETA from the calls left ({@link WorkLeft}: the previous map's sizes, or what this run learns): the
 * light calls left at the rate light calls are being made, taken along the climb that rate is on
 * ({@link EtaModel}), or what the quotas alone still need for the heavy jobs (one call per AMI at EC2's 20 a
 * second), whichever is longer:
 * {@code [61234/156400 jobs (39%)] 212.4 calls/s, 0 throttled, 0 retries, 41023 calls, ETA 3:10}. When the
 * previous map of the same output directory mapped the same estate, its duration is the first guess, which the
 * rate ETA takes over from as the work gets done ({@link Eta#withPrior}). The fields
 * after the jobs are listed most important first, the ETA last: a terminal too narrow for the line drops them
 * from the least important ({@link io.cloudg.cli.log.StatusFit}).
 *
 * <p>Where it goes ({@link Mode}): on a terminal (standard error's, and text logs), one status line redrawn in
 * place twice a second through the {@link ConsoleLine} the log lines share (they print above it, never into it);
 * otherwise a log line every ten seconds ({@code cloudg.progress}; in JSON with the figures as fields), the
 * figures sampled every second between them (what the ETA model measures the rate's climb on); with
 * {@code --no-progress}, neither.
 */
final class Progress implements TaskRunner.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.progress");

    /** Where the progress goes. */
    enum Mode {
        /** A status line redrawn in place on standard error, a terminal. */
        LIVE,
        /** A log line every ten seconds. */
        LOG,
        /** Nowhere ({@code --no-progress}). */
        OFF;

        /**
         * The mode for a map: {@code OFF} with {@code --no-progress}; {@code LIVE} when standard error is a terminal
         * and the logs are text (a JSON log keeps every line an object); else {@code LOG}.
         */
        static Mode of(boolean noProgress, boolean stderrTerminal, boolean jsonLogs) {
            if (noProgress) {
                return OFF;
            }
            return stderrTerminal && !jsonLogs ? LIVE : LOG;
        }
    }

    private final Governor governor;
    private final ConsoleLine term;
    private final ScheduledExecutorService ticker;
    private final RateMeter rate = new RateMeter(RATE_TAU_SECONDS);
    /**
     * The ETA model's state ({@link EtaModel}): the light calls (other than the quota-paced heavy jobs') made over
     * the run, whose rate and climb the light calls left go at.
     */
    private EtaModel.State eta = EtaModel.State.EMPTY;
    /** Null until the runner says what it plans. */
    private volatile WorkLeft work;
    /** The calls made before the jobs (discovery): not the jobs' calls. */
    private volatile long callsBefore;
    /** When the map started (this was made): what the previous map's duration is compared with. */
    private final long startedAt;
    /**
     * How long the previous map of this estate ran (embedded, and sizing at least {@value #PRIOR_KNOWN_SHARE} of
     * this map's jobs: the same estate), or NaN.
     */
    private volatile double priorSeconds = Double.NaN;

    /** The share of the jobs the previous map must have sized for its duration to count. */
    static final double PRIOR_KNOWN_SHARE = 0.9;

    /** The calls-per-second figure follows about this many seconds of the run. */
    static final double RATE_TAU_SECONDS = 20;

    /** How often the figures (the rate, the ETA model) are sampled when the line is logged, not drawn. */
    static final long SAMPLE_MILLIS = 1_000;

    /** How often the line is logged (when it is not drawn on a terminal). */
    static final long LOG_MILLIS = 10_000;

    /** When the line was last logged (governor time). */
    private long lastLoggedAt;

    Progress(Governor governor, ConsoleLine console, Mode mode) {
        this(governor, console, mode, true);
    }

    /** {@code ticking}: false for a test that calls {@link #line()} on its own clock. */
    Progress(Governor governor, ConsoleLine console, Mode mode, boolean ticking) {
        this.governor = governor;
        this.term = mode == Mode.LIVE ? console : null;
        this.ticker = ticking && mode != Mode.OFF ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloudg-progress");
            t.setDaemon(true);
            return t;
        }) : null;
        this.startedAt = governor.time().epochMillis();
        // the first line then shows the rate since the start, not a blank one (a log's first line is 10 s in)
        rate.update(governor.stats().totals().calls(), governor.time().epochMillis());
        this.lastLoggedAt = startedAt;
        // the log's line comes every ten seconds, but the ETA model is fed every second: its climb is measured on
        // the points it is given, and a 50-s map logged every 10 s gives it two points by its 37th percent
        long period = mode == Mode.LIVE ? 500 : SAMPLE_MILLIS;
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
        if (cost instanceof CallEstimates e && "embedded".equals(e.prior().mode())
                && w.knownShare() >= PRIOR_KNOWN_SHARE) {
            priorSeconds = e.prior().durationSeconds();
        }
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

    /** Whether a ticker draws or logs the line (not with {@link Mode#OFF}, nor for a test on its own clock). */
    boolean ticking() {
        return ticker != null;
    }

    /**
     * What the ticker does: samples the figures, and draws the line, or logs it when {@value #LOG_MILLIS} ms
     * have passed since the last one logged (half a sample early counts: the ticker's period and the governor's
     * clock drift apart by a few milliseconds).
     */
    synchronized void tick() {
        Line l = measure();
        if (term != null) {
            term.status(l.text());
        } else {
            long now = governor.time().epochMillis();
            if (now - lastLoggedAt < LOG_MILLIS - SAMPLE_MILLIS / 2) {
                return;
            }
            lastLoggedAt = now;
            LoggingEventBuilder e = LOG.atInfo().setMessage("progress: " + l.text());
            l.fields().forEach(e::addKeyValue);
            e.log();
        }
    }

    /** The line at the governor's present time (the rate is updated: call it once per tick). */
    synchronized String line() {
        return measure().text();
    }

    /** A progress line, and its figures as log fields. */
    record Line(String text, Map<String, Object> fields) {
    }

    private Line measure() {
        Counts c = governor.stats().totals();
        long now = governor.time().epochMillis();
        double cps = rate.update(c.calls(), now);
        double shownCps = Double.isNaN(cps) ? 0 : cps;
        WorkLeft w = work;
        Map<String, Object> f = new LinkedHashMap<>();
        if (w == null) {
            f.put("calls_per_second", round1(shownCps));
            f.put("calls", c.calls());
            f.put("throttled", c.throttled());
            f.put("retries", c.retries());
            return new Line(String.format(Locale.ROOT, "[planning] %.1f calls/s, %d throttled, %d retries, %d calls",
                    shownCps, c.throttled(), c.retries(), c.calls()), f);
        }
        WorkLeft.Snapshot s = w.snapshot(now, Math.max(0, c.calls() - callsBefore), true);
        EtaModel.Step step = EtaModel.step(eta, now, EtaModel.Input.of(s, priorSeconds, (now - startedAt) / 1000.0),
                EtaModel.Config.DEFAULTS);
        eta = step.state();
        double etaSeconds = s.jobsTotal() > 0 && s.jobsDone() == s.jobsTotal() ? 0 : step.estimate().seconds();
        f.put("jobs_done", s.jobsDone());
        f.put("jobs_total", s.jobsTotal());
        f.put("calls_per_second", round1(shownCps));
        f.put("throttled", c.throttled());
        f.put("retries", c.retries());
        f.put("calls", c.calls());
        if (!Double.isNaN(etaSeconds)) {
            f.put("eta_seconds", Math.round(etaSeconds));
        }
        return new Line(text(s.jobsDone(), s.jobsTotal(), s.jobsPercent(), shownCps, c.throttled(), c.retries(),
                c.calls(), Eta.clock(etaSeconds)), f);
    }

    /**
     * {@code [652/17837 jobs (3%)] 212.4 calls/s, 0 throttled, 0 retries, 41023 calls, ETA 3:10}: the share is of
     * the jobs counted before it ({@link WorkLeft.Snapshot#jobsPercent()}).
     */
    static String text(long jobsDone, long jobsTotal, int percent, double cps, long throttled, long retries, long calls,
                       String eta) {
        return String.format(Locale.ROOT, "[%d/%d jobs (%d%%)] %.1f calls/s, %d throttled, %d retries, %d calls, ETA %s",
                jobsDone, jobsTotal, percent, cps, throttled, retries, calls, eta);
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
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
