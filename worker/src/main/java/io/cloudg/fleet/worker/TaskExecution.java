package io.cloudg.fleet.worker;

import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.LogContext;
import io.cloudg.collect.TaskLog;
import io.cloudg.collect.TaskRunner;
import io.cloudg.fleet.kafka.ResultEmitter;
import io.cloudg.fleet.protocol.TaskMessage;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.run.CallEstimates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.event.Level;

/**
 * One worker's run of one delivery of a task: its jobs on the worker's job pool, each through
 * {@link TaskRunner#runJob} (so coverage is judged exactly as in an embedded map), its own throttling
 * counters, its results through a {@link ResultEmitter}. It ends once: {@code DONE} when every result is
 * acknowledged, {@code ABANDONED} (timeout) or {@code HANDED_BACK} (shutdown) when the notice is; whichever
 * of finishing and abandoning comes first wins.
 */
final class TaskExecution {
    enum Outcome { DONE, ABANDONED, HANDED_BACK }

    private enum State { RUNNING, FINISHING, ENDED }

    private final TaskMessage message;
    private final CollectionTask task;
    private final TopicPartition partition;
    private final long offset;
    private final String executionId;
    private final ResultEmitter emitter;
    private final Coverage coverage;
    private final TimeSource time;
    private final MapMetrics metrics;
    private final ThrottlingStats stats = new ThrottlingStats();
    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private final CompletableFuture<Outcome> completion = new CompletableFuture<>();
    private final List<Future<?>> running = new ArrayList<>();
    private long startedAt;
    private long deadline;

    TaskExecution(TaskMessage message, CollectionTask task, TopicPartition partition, long offset, String executionId,
                  ResultEmitter emitter, Coverage coverage, TimeSource time) {
        this(message, task, partition, offset, executionId, emitter, coverage, time, MapMetrics.NONE);
    }

    TaskExecution(TaskMessage message, CollectionTask task, TopicPartition partition, long offset, String executionId,
                  ResultEmitter emitter, Coverage coverage, TimeSource time, MapMetrics metrics) {
        this.message = message;
        this.task = task;
        this.partition = partition;
        this.offset = offset;
        this.executionId = executionId;
        this.emitter = emitter;
        this.coverage = coverage;
        this.time = time;
        this.metrics = metrics;
    }

    /** Binds this delivery's run id, task id, provider, account and region on the calling thread until closed. */
    LogContext logContext() {
        Map<String, String> m = new HashMap<>();
        m.put(LogContext.RUN_ID, message.runId());
        m.put(LogContext.TASK_ID, message.taskId());
        m.put(LogContext.PROVIDER, message.target().provider());
        m.put(LogContext.ACCOUNT, message.target().accountId());
        m.put(LogContext.REGION, message.target().region());
        return LogContext.bind(m);
    }

    TaskMessage message() {
        return message;
    }

    TopicPartition partition() {
        return partition;
    }

    long offset() {
        return offset;
    }

    String executionId() {
        return executionId;
    }

    CompletableFuture<Outcome> completion() {
        return completion;
    }

    /**
     * Sends {@code started} and queues every job, ranked by its expected calls ({@link CallEstimates#rank} of the configuration's call shapes: without
     * the previous map's sizes, a listing with per-item calls above a plain one) and then its task's
     * ({@link TaskMessage#cost}), so that with the job window a place frees for an AMI fan-out before the small
     * listings of its own task and of the tasks taken before it (with {@code fleet.worker.threads} set they start
     * in order); returns at once.
     */
    synchronized void start(JobPool jobs, CallEstimates estimates) {
        startedAt = time.epochMillis();
        deadline = startedAt + message.timeoutMs();
        emitter.started(startedAt);
        List<CollectorJob> list = task.jobs();
        ServiceCoverage[] entries = new ServiceCoverage[list.size()];
        AtomicInteger remaining = new AtomicInteger(list.size());
        if (list.isEmpty()) {
            finish(entries);
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            int index = i;
            CollectorJob job = list.get(index);
            long jobCost = estimates.rank(task.provider(), task.accountId(), task.region(), job.service());
            running.add(jobs.submit(() -> {
                try (LogContext context = logContext()) {
                    entries[index] = TaskRunner.runJob(coverage, task, job, stats, emitter, metrics);
                    if (remaining.decrementAndGet() == 0) {
                        finish(entries);
                    }
                }
            }, message.cost(), jobCost));
        }
    }

    private void finish(ServiceCoverage[] entries) {
        if (!state.compareAndSet(State.RUNNING, State.FINISHING)) {
            return;
        }
        long endedAt = time.epochMillis();
        try (LogContext context = logContext()) { // what the worker did: one line per task
            TaskLog.ended(task, Arrays.asList(entries), stats.totals().calls(), endedAt - startedAt, Level.INFO);
        }
        emitter.done(Arrays.asList(entries), WireThrottling.of(stats), startedAt, endedAt)
                .whenComplete((v, e) -> {
                    state.set(State.ENDED);
                    if (e == null) {
                        completion.complete(Outcome.DONE);
                    } else {
                        completion.completeExceptionally(e);
                    }
                });
    }

    /** Whether it is still running at {@code now} past its timeout. */
    boolean expired(long now) {
        return state.get() == State.RUNNING && now >= deadline;
    }

    boolean running() {
        return state.get() == State.RUNNING;
    }

    /**
     * Stops it: interrupts its jobs, refuses their further assets and sends {@code abandoned}. Does
     * nothing if it already finished (its results are on their way).
     */
    void abandon(String reason, boolean handedBack) {
        if (!state.compareAndSet(State.RUNNING, State.ENDED)) {
            return;
        }
        synchronized (this) {
            for (Future<?> f : running) {
                f.cancel(true);
            }
        }
        emitter.abandon(reason, handedBack, time.epochMillis()).whenComplete((v, e) -> {
            if (e == null) {
                completion.complete(handedBack ? Outcome.HANDED_BACK : Outcome.ABANDONED);
            } else {
                completion.completeExceptionally(e);
            }
        });
    }
}
