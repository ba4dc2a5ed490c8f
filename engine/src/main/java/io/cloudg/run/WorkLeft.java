package io.cloudg.run;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.ProviderLimits;
import io.cloudg.resilience.config.RateLimitConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * What is left of a run, counted in the units that finish steadily: collector jobs, and the calls they
 * are expected to make ({@link CallEstimates}). Fed with each job's planning, start and end (the embedded
 * runner's events, or a fleet's task messages), it answers how many jobs are done and how many calls are
 * left, and how long the quotas alone need for the calls left in the buckets that will run dry
 * ({@link #snapshot}). Progress lines turn that into a percentage and an ETA ({@link Eta}).
 *
 * <p>A job the previous map sized is expected to make the calls it made then; a job it did not size
 * counts at the mean of the jobs of the same collector that ended in this run (a first map learns as it
 * goes). Memory is one small counter set per collector name, plus one entry per job heavy enough to run a
 * bucket dry. Thread-safe.
 */
public final class WorkLeft {
    /** A leaf bucket's limits: calls per second, and the burst a full bucket admits at once. */
    public record Limit(double rate, double burst) {
        public static final Limit NONE = new Limit(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /** The limits of the bucket that paces calls of {@code service} / {@code operation}. */
    @FunctionalInterface
    public interface Limits {
        Limit of(String provider, String service, String operation);

        /** No quota: the ETA is the calls left at the observed rate alone. */
        Limits NONE = (p, s, o) -> Limit.NONE;

        /** The governor's configured leaves (their ceilings: AIMD may pace slower after throttling). */
        static Limits of(RateLimitConfig config) {
            return (provider, service, operation) -> {
                ProviderLimits p = config.providers().get(provider);
                if (p == null || !p.enabled() || !config.enabled()) {
                    return Limit.NONE;
                }
                LeafLimit l = p.leafLimit(service, operation);
                return new Limit(l.ceilingRps(), l.burst());
            };
        }
    }

    /**
     * A moment of the run.
     *
     * @param callsDone calls made (or, where calls are heard of only at the end of a task, the ended jobs')
     * @param callsLeft calls expected still
     * @param quotaSeconds what the quotas alone still need: the longest drain of a bucket by the heavy jobs
     * @param heavyCallsLeft the part of {@code callsLeft} of the heavy jobs, which the quota paces
     * @param lightCallsMade the calls made other than the heavy jobs': their rate is what the light calls
     *        left will go at
     */
    public record Snapshot(long jobsDone, long jobsTotal, long callsDone, long callsLeft, double quotaSeconds,
                           long heavyCallsLeft, long lightCallsMade) {
        /** Without the heavy jobs' split (no job drains a bucket). */
        public Snapshot(long jobsDone, long jobsTotal, long callsDone, long callsLeft, double quotaSeconds) {
            this(jobsDone, jobsTotal, callsDone, callsLeft, quotaSeconds, 0, callsDone);
        }

        /** The calls left that the rate of light calls sets the pace of. */
        public long lightCallsLeft() {
            return Math.max(0, callsLeft - heavyCallsLeft);
        }

        /**
         * The share of the jobs ended in whole percent, rounded down: 100 only when every job has ended. What a
         * progress line shows beside the job count, so that the two always agree.
         */
        public int jobsPercent() {
            if (jobsTotal <= 0) {
                return 0;
            }
            return jobsDone >= jobsTotal ? 100 : (int) Math.min(99, Math.floor(100.0 * jobsDone / jobsTotal));
        }

        /** The share of the expected calls done, 0 to 1; below 0.99 while a job is left. */
        public double fraction() {
            if (jobsTotal > 0 && jobsDone == jobsTotal) {
                return 1;
            }
            long all = callsDone + callsLeft;
            return all == 0 ? 0 : Math.min(0.99, (double) callsDone / all);
        }
    }

    /** Counters of one collector. */
    private static final class Collector {
        final String provider;
        final CallShape shape;
        long planned;
        long started;
        long finished;
        long knownPlanned;
        long knownStarted;
        long knownFinished;
        long expectedPlanned;
        long expectedStarted;
        long expectedFinished;
        long actualFinished;

        Collector(String provider, CallShape shape) {
            this.provider = provider;
            this.shape = shape;
        }

        /** What a job of this collector is expected to make when the previous map did not size it. */
        double mean() {
            return finished > 0 ? (double) actualFinished / finished : shape.calls(0);
        }

        double notStarted() {
            long unknown = (planned - knownPlanned) - (started - knownStarted);
            return (expectedPlanned - expectedStarted) + unknown * mean();
        }

        double running() {
            long unknown = (started - knownStarted) - (finished - knownFinished);
            return (expectedStarted - expectedFinished) + unknown * mean();
        }
    }

    /** A job expected to make more calls than its bucket's burst: the quota, not the fleet, sets its pace. */
    private static final class Heavy {
        final String bucket;
        final long expected;
        final Limit limit;
        long startedAt = -1;

        Heavy(String bucket, long expected, Limit limit) {
            this.bucket = bucket;
            this.expected = expected;
            this.limit = limit;
        }

        /** Seconds the quota still needs for it at {@code now}. */
        double seconds(long now) {
            double all = Math.max(0, expected - limit.burst()) / limit.rate();
            return startedAt < 0 ? all : Math.max(0, all - (now - startedAt) / 1000.0);
        }

        /** The calls it has made by {@code now} if it goes at its bucket's pace: the burst, then the rate. */
        double made(long now) {
            return startedAt < 0 ? 0 : Math.min(expected, limit.burst() + limit.rate() * (now - startedAt) / 1000.0);
        }
    }

    private final CallEstimates estimates;
    private final Limits limits;
    private final Map<String, Collector> collectors = new HashMap<>();
    private final Map<String, Heavy> heavy = new HashMap<>();
    private long jobsTotal;
    private long jobsDone;
    /** The calls of ended jobs that drained their bucket: not part of the light calls' rate. */
    private long heavyEnded;

    public WorkLeft(CallEstimates estimates, Limits limits) {
        this.estimates = estimates;
        this.limits = limits;
    }

    /**
     * The share of the planned jobs the previous map sized ({@link CallEstimates#known}): near 1 when this map is
     * of the estate the previous one mapped, so that its duration says something of this one's; 0 before any job
     * is planned.
     */
    public synchronized double knownShare() {
        long known = 0;
        for (Collector c : collectors.values()) {
            known += c.knownPlanned;
        }
        return jobsTotal == 0 ? 0 : (double) known / jobsTotal;
    }

    /** One job to run. */
    public synchronized void planned(String provider, String account, String region, String collector) {
        Collector c = collector(provider, collector);
        c.planned++;
        jobsTotal++;
        if (estimates.known(provider, account, region, collector)) {
            long e = estimates.expected(provider, account, region, collector);
            c.knownPlanned++;
            c.expectedPlanned += e;
            Limit l = limits.of(provider, c.shape.service(), c.shape.itemOperation());
            if (e > l.burst()) {
                String record = provider + "/" + account + "/" + region;
                heavy.put(record + "/" + collector, new Heavy(record + "/" + c.shape.service() + "/"
                        + c.shape.itemOperation(), e, l));
            }
        }
    }

    /** A job started at {@code now} (epoch millis). */
    public synchronized void started(String provider, String account, String region, String collector, long now) {
        Collector c = collector(provider, collector);
        c.started++;
        if (estimates.known(provider, account, region, collector)) {
            c.knownStarted++;
            c.expectedStarted += estimates.expected(provider, account, region, collector);
            Heavy h = heavy.get(provider + "/" + account + "/" + region + "/" + collector);
            if (h != null && h.startedAt < 0) {
                h.startedAt = now;
            }
        }
    }

    /** A job ended having found {@code assets} items (a job given up before it started ends with 0). */
    public synchronized void finished(String provider, String account, String region, String collector, long assets) {
        Collector c = collector(provider, collector);
        if (c.started == c.finished) { // it never started (given up): count its start, so nothing runs below zero
            started(provider, account, region, collector, -1);
        }
        c.finished++;
        long calls = c.shape.calls(assets);
        c.actualFinished += calls;
        jobsDone++;
        if (calls > limits.of(provider, c.shape.service(), c.shape.itemOperation()).burst()) {
            heavyEnded += calls;
        }
        if (estimates.known(provider, account, region, collector)) {
            c.knownFinished++;
            c.expectedFinished += estimates.expected(provider, account, region, collector);
            heavy.remove(provider + "/" + account + "/" + region + "/" + collector);
        }
    }

    /**
     * The run at {@code now} (epoch millis).
     *
     * @param callsMade the calls made so far: in an embedded map every call, the running jobs' included
     *        ({@code runningCounted}); in a fleet those of ended tasks only, as results report them; or -1 when
     *        not known. What running jobs made comes off their expectation.
     */
    public synchronized Snapshot snapshot(long now, long callsMade, boolean runningCounted) {
        double notStarted = 0;
        double running = 0;
        long ended = 0;
        double quota = 0;
        double heavyLeft = 0;
        for (Collector c : collectors.values()) {
            notStarted += c.notStarted();
            running += c.running();
            ended += c.actualFinished;
            long unknownWaiting = (c.planned - c.knownPlanned) - (c.started - c.knownStarted);
            if (unknownWaiting > 0 && c.finished > 0) {
                Limit l = limits.of(c.provider, c.shape.service(), c.shape.itemOperation());
                if (c.mean() > l.burst()) { // a first map learns that this collector drains buckets
                    quota = Math.max(quota, (c.mean() - l.burst()) / l.rate());
                    heavyLeft += unknownWaiting * c.mean();
                }
            }
        }
        Map<String, Double> buckets = new HashMap<>();
        double heavyRunningMade = 0;
        for (Heavy h : heavy.values()) {
            quota = Math.max(quota, buckets.merge(h.bucket, h.seconds(now), Double::sum));
            double made = h.made(now);
            heavyRunningMade += made;
            heavyLeft += h.expected - made;
        }
        long made = callsMade < 0 ? ended : callsMade;
        long inFlight = runningCounted ? Math.max(0, made - ended) : 0;
        // running jobs that have made more calls than expected are larger than thought: as much again is left
        double runningLeft = running >= inFlight ? running - inFlight : inFlight - running;
        long left = Math.round(notStarted + runningLeft);
        long light = Math.max(0, Math.round(made - heavyEnded - (runningCounted ? heavyRunningMade : 0)));
        return new Snapshot(jobsDone, jobsTotal, runningCounted ? Math.max(made, ended) : made, left, quota,
                Math.min(left, Math.round(heavyLeft)), light);
    }

    private Collector collector(String provider, String name) {
        return collectors.computeIfAbsent(provider + "/" + name, k -> new Collector(provider, estimates.shape(provider, name)));
    }
}
