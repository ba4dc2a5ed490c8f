package io.cloudg.collect;

import io.cloudg.inventory.AssetSink;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs collection tasks in this process: a fixed pool of worker threads takes collector jobs in an
 * interleaved order (the first collector of every task, then the second of every task...), so that the
 * buckets of different accounts and regions are used in parallel rather than one account at a time. Each
 * job runs under its own {@link TaskLedger}, which feeds the run's throttling statistics and decides the
 * job's coverage ({@link Coverage}). A task's record is complete when its last job ends; a task with a
 * {@link TaskSummary} then gets the summary's entry after its jobs' entries.
 */
public final class TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.run");

    /** Hears of progress; called from worker threads. */
    public interface Listener {
        void taskDone(CollectionTask task, CoverageRecord record, int done, int total);
    }

    private final int workers;
    private final Coverage coverage;
    private final ThrottlingStats run;
    private final AssetSink sink;
    private final Listener listener;
    private final MapMetrics metrics;

    public TaskRunner(int workers, Coverage coverage, ThrottlingStats run, AssetSink sink, Listener listener) {
        this(workers, coverage, run, sink, listener, MapMetrics.NONE);
    }

    public TaskRunner(int workers, Coverage coverage, ThrottlingStats run, AssetSink sink, Listener listener,
                      MapMetrics metrics) {
        this.workers = workers;
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
     * job's entry and assets in {@code metrics}, with the task's {@link LogContext} on the thread meanwhile.
     */
    public static ServiceCoverage runJob(Coverage coverage, CollectionTask task, CollectorJob job, ThrottlingStats run,
                                         AssetSink sink, MapMetrics metrics) {
        try (LogContext context = LogContext.task(task)) {
            ServiceCoverage entry = judgeJob(coverage, task, job, run, sink);
            metrics.covered(task.provider(), entry);
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
        int maxJobs = 0;
        for (int i = 0; i < n; i++) {
            entries[i] = new ServiceCoverage[tasks.get(i).jobs().size()];
            remaining[i] = new AtomicInteger(entries[i].length);
            maxJobs = Math.max(maxJobs, entries[i].length);
            if (entries[i].length == 0) {
                records[i] = new CoverageRecord(tasks.get(i).provider(), tasks.get(i).accountId(), tasks.get(i).region(),
                        tasks.get(i).entries(List.of()));
                listener.taskDone(tasks.get(i), records[i], done.incrementAndGet(), n);
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, workers), r -> {
            Thread t = new Thread(r, "cloudg-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int j = 0; j < maxJobs; j++) {
                for (int i = 0; i < n; i++) {
                    CollectionTask task = tasks.get(i);
                    if (j >= task.jobs().size()) {
                        continue;
                    }
                    int ti = i;
                    int ji = j;
                    pool.execute(LogContext.wrap(() -> {
                        try {
                            entries[ti][ji] = runJob(coverage, task, task.jobs().get(ji), run, sink, metrics);
                        } catch (Throwable t) { // out of memory, a stack overflow: the record must still be complete
                            entries[ti][ji] = new ServiceCoverage(task.jobs().get(ji).service(),
                                    io.cloudg.inventory.CoverageStatus.FAILED, 0, "internal error: " + t);
                            LOG.error("{} {}: internal error", task.id(), task.jobs().get(ji).service(), t);
                        }
                        if (remaining[ti].decrementAndGet() == 0) {
                            CoverageRecord r = new CoverageRecord(task.provider(), task.accountId(), task.region(),
                                    task.entries(Arrays.asList(entries[ti])));
                            records[ti] = r;
                            listener.taskDone(task, r, done.incrementAndGet(), n);
                        }
                    }));
                }
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
}
