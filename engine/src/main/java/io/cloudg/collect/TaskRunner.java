package io.cloudg.collect;

import io.cloudg.inventory.AssetSink;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.preload.ClassPreload;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs collection tasks in this process, each collector job on a virtual thread of its own: a job is sequential
 * code whose waits (the network, the governor's tokens, bulkhead slots and the process's ceiling on calls in
 * flight) park it without holding a platform thread, so what bounds the calls in flight is the governor
 * ({@code ratelimit.<provider>.max_concurrency}, the buckets, {@code ratelimit.max_calls_in_flight}), not a thread
 * count. At most {@code jobs} jobs run at once (the configuration's {@code workers}; by default as many as calls may
 * be in flight): a job starts when one ends, so memory stays flat however many jobs a map has (two million for
 * an organization of 1,000 accounts in 17 regions), and jobs start in a set order: heaviest
 * first ({@link JobCost}: the calls a job is expected to make), so that the long, quota-bound fan-outs
 * (one call per AMI) start at once and run beside each other instead of being left for the end; among
 * jobs of equal cost the order is interleaved (the first collector of every task, then the second of
 * every task...), so that the buckets of different accounts and regions are used in parallel rather than
 * one account at a time ({@link #order}). Each
 * job runs under its own {@link TaskLedger}, which feeds the run's throttling statistics and decides the
 * job's coverage ({@link Coverage}). A task's record is complete when its last job ends; a task with a
 * {@link TaskSummary} then gets the summary's entry after its jobs' entries. Before the first job starts, {@link #run}
 * waits for {@link ClassPreload} (the classes a map loads, loaded on platform threads).
 */
public final class TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.run");

    /** Hears of progress; called from worker threads. */
    public interface Listener {
        void taskDone(CollectionTask task, CoverageRecord record, int done, int total);

        /** The tasks about to run and the cost their jobs are ordered by, once, before any job starts. */
        default void planned(List<CollectionTask> tasks, JobCost cost) {
        }

        /** A job starts. */
        default void jobStarted(CollectionTask task, CollectorJob job) {
        }

        /** A job ended with its coverage entry: the unit that finishes steadily, whatever the tasks' sizes. */
        default void jobDone(CollectionTask task, CollectorJob job, ServiceCoverage entry) {
        }
    }

    private final int jobs;
    private final Coverage coverage;
    private final ThrottlingStats run;
    private final AssetSink sink;
    private final Listener listener;
    private final JobCost cost;
    private final MapMetrics metrics;

    public TaskRunner(int jobs, Coverage coverage, ThrottlingStats run, AssetSink sink, Listener listener) {
        this(jobs, coverage, run, sink, listener, JobCost.NONE, MapMetrics.NONE);
    }

    /** A runner that starts the jobs {@code cost} expects to make the most calls first. */
    public TaskRunner(int jobs, Coverage coverage, ThrottlingStats run, AssetSink sink, Listener listener,
                      JobCost cost) {
        this(jobs, coverage, run, sink, listener, cost, MapMetrics.NONE);
    }

    public TaskRunner(int jobs, Coverage coverage, ThrottlingStats run, AssetSink sink, Listener listener,
                      MapMetrics metrics) {
        this(jobs, coverage, run, sink, listener, JobCost.NONE, metrics);
    }

    /**
     * A runner of at most {@code jobs} collector jobs at once that starts the heaviest first ({@code cost}) and
     * counts into {@code metrics}.
     */
    public TaskRunner(int jobs, Coverage coverage, ThrottlingStats run, AssetSink sink, Listener listener,
                      JobCost cost, MapMetrics metrics) {
        this.cost = cost == null ? JobCost.NONE : cost;
        this.jobs = Math.max(1, jobs);
        this.coverage = coverage;
        this.run = run;
        this.sink = sink;
        this.listener = listener == null ? (t, r, d, n) -> { } : listener;
        this.metrics = metrics;
    }

    /** Runs one collector job of a task; never throws (an escaped error becomes a FAILED entry). */
    public static ServiceCoverage runJob(Coverage coverage, CollectionTask task, CollectorJob job, ThrottlingStats run,
                                         AssetSink sink) {
        return runJob(coverage, task, job, run, sink, MapMetrics.NONE);
    }

    /**
     * As {@link #runJob(Coverage, CollectionTask, CollectorJob, ThrottlingStats, AssetSink)}, counting the
     * job's entry and assets in {@code metrics}, with the task's {@link LogContext} on the thread meanwhile; an
     * entry that is not SUCCESS is logged ({@link TaskLog#entry}).
     */
    public static ServiceCoverage runJob(Coverage coverage, CollectionTask task, CollectorJob job, ThrottlingStats run,
                                         AssetSink sink, MapMetrics metrics) {
        try (LogContext context = LogContext.task(task)) {
            ServiceCoverage entry = judgeJob(coverage, task, job, run, sink);
            metrics.covered(task.provider(), entry);
            TaskLog.entry(task, entry); // a PARTIAL or FAILED collector: a WARN with its reason
            return entry;
        }
    }

    private static ServiceCoverage judgeJob(Coverage coverage, CollectionTask task, CollectorJob job, ThrottlingStats run,
                                            AssetSink sink) {
        TaskLedger ledger = TaskLedger.create(task.id() + "/" + job.service(), run);
        AtomicLong count = new AtomicLong();
        AssetSink counting = a -> {
            sink.accept(a);
            count.incrementAndGet();
        };
        try (TaskLedger.Binding b = ledger.bind()) {
            job.body().run(counting);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return coverage.failed(job.service(), count.get(), e, ledger);
        } catch (Exception | LinkageError | AssertionError e) {
            ServiceCoverage failed = coverage.failed(job.service(), count.get(), e, ledger);
            LOG.debug("{} {} failed: {}", task.id(), job.service(), failed.error(), e);
            return failed;
        }
        return Coverage.finished(job.service(), count.get(), ledger);
    }

    /** Runs every task; returns their coverage records in task order. */
    public List<CoverageRecord> run(List<CollectionTask> tasks) throws InterruptedException {
        int n = tasks.size();
        CoverageRecord[] records = new CoverageRecord[n];
        ServiceCoverage[][] entries = new ServiceCoverage[n][];
        AtomicInteger[] remaining = new AtomicInteger[n];
        AtomicInteger done = new AtomicInteger();
        listener.planned(tasks, cost);
        for (int i = 0; i < n; i++) {
            entries[i] = new ServiceCoverage[tasks.get(i).jobs().size()];
            remaining[i] = new AtomicInteger(entries[i].length);
            if (entries[i].length == 0) {
                records[i] = new CoverageRecord(tasks.get(i).provider(), tasks.get(i).accountId(), tasks.get(i).region(),
                        tasks.get(i).entries(List.of()));
                listener.taskDone(tasks.get(i), records[i], done.incrementAndGet(), n);
            }
        }
        // the classes a map loads, loaded on platform threads before the first job's virtual thread starts: a job
        // blocked inside a class load keeps its carrier, and enough of them at once stop the process (issue 37)
        ClassPreload.global().awaitLoaded();
        // a job's thread starts when one of the jobs' places is free, in order(): never more threads than places
        Semaphore places = new Semaphore(jobs);
        ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("cloudg-job-", 0).factory());
        try {
            for (long k : order(tasks, cost)) {
                int ti = (int) (k >>> 32);
                int ji = (int) k;
                CollectionTask task = tasks.get(ti);
                CollectorJob job = task.jobs().get(ji);
                places.acquire();
                pool.execute(LogContext.wrap(() -> {
                    try {
                        runOne(task, job, ti, ji, entries, remaining, records, done, n);
                    } finally {
                        places.release();
                    }
                }));
            }
            pool.shutdown();
            while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                // waiting for the jobs; interruption cancels them
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            throw e;
        }
        List<CoverageRecord> out = new ArrayList<>(n);
        for (CoverageRecord r : records) {
            out.add(r);
        }
        return out;
    }

    /** Job {@code ji} of task {@code ti}; the task's record once its last job ends. */
    private void runOne(CollectionTask task, CollectorJob job, int ti, int ji, ServiceCoverage[][] entries,
                        AtomicInteger[] remaining, CoverageRecord[] records, AtomicInteger done, int n) {
        listener.jobStarted(task, job);
        try {
            entries[ti][ji] = runJob(coverage, task, job, run, sink, metrics);
        } catch (Throwable t) { // out of memory, a stack overflow: the record must still be complete
            entries[ti][ji] = new ServiceCoverage(job.service(), io.cloudg.inventory.CoverageStatus.FAILED, 0,
                    "internal error: " + t);
            LOG.error("{} {}: internal error", task.id(), job.service(), t);
        }
        listener.jobDone(task, job, entries[ti][ji]);
        if (remaining[ti].decrementAndGet() == 0) {
            CoverageRecord r = new CoverageRecord(task.provider(), task.accountId(), task.region(),
                    task.entries(Arrays.asList(entries[ti])));
            records[ti] = r;
            listener.taskDone(task, r, done.incrementAndGet(), n);
        }
    }

    /**
     * The order jobs start in, as {@code taskIndex << 32 | jobIndex}: the most expected calls first; among
     * equals, interleaved (job 0 of every task in task order, then job 1 of every task...). Memory is a few
     * primitive arrays of the job count, so two million jobs order in well under a second.
     */
    public static long[] order(List<CollectionTask> tasks, JobCost cost) {
        int n = tasks.size();
        int maxJobs = 0;
        int total = 0;
        for (CollectionTask t : tasks) {
            maxJobs = Math.max(maxJobs, t.jobs().size());
            total += t.jobs().size();
        }
        long[] interleaved = new long[total];
        long[] keys = new long[total];
        int seq = 0;
        for (int j = 0; j < maxJobs; j++) {
            for (int i = 0; i < n; i++) {
                CollectionTask task = tasks.get(i);
                if (j >= task.jobs().size()) {
                    continue;
                }
                long c = Math.max(0, Math.min(Integer.MAX_VALUE, cost.calls(task, task.jobs().get(j))));
                keys[seq] = (Integer.MAX_VALUE - c) << 32 | seq;
                interleaved[seq] = (long) i << 32 | j;
                seq++;
            }
        }
        Arrays.sort(keys);
        long[] out = new long[total];
        for (int k = 0; k < total; k++) {
            out[k] = interleaved[(int) (keys[k] & 0xffffffffL)];
        }
        return out;
    }
}
