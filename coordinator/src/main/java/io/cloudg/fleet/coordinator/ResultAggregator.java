package io.cloudg.fleet.coordinator;

import io.cloudg.collect.TaskSummary;
import io.cloudg.replan.Replanners;
import io.cloudg.fleet.protocol.AssetChunk;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.fleet.protocol.ResultMessage;
import io.cloudg.fleet.protocol.TaskAbandoned;
import io.cloudg.fleet.protocol.TaskDone;
import io.cloudg.fleet.protocol.TaskStarted;
import io.cloudg.fleet.protocol.WireTarget;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.WorkLeft;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns a run's result messages into its map, keeping exactly one execution per task: an execution's
 * assets wait in the {@link StagingArea} until its {@code done} arrives; the first complete {@code done}
 * of a task moves them into the spool and records the task's coverage; every later one (a redelivery, a
 * retry that raced) is counted as a duplicate and dropped, assets and all. So each asset appears once,
 * whatever Kafka redelivered. Failures go to the {@link AttemptTracker}. Single-threaded (the
 * coordinator's loop owns it).
 */
public final class ResultAggregator {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger("cloudg.fleet.coordinator");
    private final Map<String, PlannedTask> tasks = new LinkedHashMap<>();
    private final Map<String, List<ServiceCoverage>> outcomes = new HashMap<>();
    private final AssetSpool spool;
    private final StagingArea staging;
    private final AttemptTracker tracker;
    private final FleetThrottling throttling;
    private final TreeSet<String> workers = new TreeSet<>();
    private final WorkLeft work;
    /** Tasks whose jobs {@link #work} counts as started. */
    private final java.util.Set<String> started = new java.util.HashSet<>();
    private long duplicates;
    private long executions;
    private long ignored;
    private int failedTasks;

    public ResultAggregator(List<PlannedTask> plan, AssetSpool spool, StagingArea staging, AttemptTracker tracker,
                            FleetThrottling throttling) {
        this(plan, spool, staging, tracker, throttling, new WorkLeft(CallEstimates.NONE, WorkLeft.Limits.NONE));
    }

    /** {@code work} hears of every job's plan, start and end (the progress line's units). */
    ResultAggregator(List<PlannedTask> plan, AssetSpool spool, StagingArea staging, AttemptTracker tracker,
                     FleetThrottling throttling, WorkLeft work) {
        this.work = work;
        for (PlannedTask t : plan) {
            tasks.put(t.taskId(), t);
            for (String c : t.target().collectors()) {
                work.planned(t.target().provider(), t.target().accountId(), t.target().region(), c);
            }
        }
        this.spool = spool;
        this.staging = staging;
        this.tracker = tracker;
        this.throttling = throttling;
    }

    boolean knows(String taskId) {
        return tasks.containsKey(taskId);
    }

    boolean isDone(String taskId) {
        return outcomes.containsKey(taskId);
    }

    public void onResult(ResultMessage m, long now) {
        if (!tasks.containsKey(m.taskId())) {
            ignored++;
            return;
        }
        boolean done = outcomes.containsKey(m.taskId());
        if (m instanceof TaskStarted s) {
            workers.add(s.workerId());
            executions++;
            if (!done) {
                tracker.started(s.taskId(), s.attempt(), s.executionId(), s.workerId(), s.startedAt());
                jobsStarted(s.taskId(), s.startedAt());
            }
        } else if (m instanceof AssetChunk c) {
            if (!done) {
                staging.append(c.executionId(), c.seq(), c.assets());
            }
        } else if (m instanceof TaskDone d) {
            throttling.add(d.throttling());
            if (done) {
                duplicates++;
                staging.discard(d.executionId());
                tracker.ended(d.taskId(), d.executionId());
                return;
            }
            String problem = problem(d);
            if (problem != null) {
                staging.discard(d.executionId());
                tracker.failed(d.taskId(), d.attempt(), d.executionId(), d.workerId(), problem, false, now);
                return;
            }
            staging.moveInto(d.executionId(), spool);
            LOG.debug("task {} done by {} in {} ms, {} assets", d.taskId(), d.workerId(), d.finishedAt() - d.startedAt(),
                    d.assetCount());
            outcomes.put(d.taskId(), d.coverage());
            jobsEnded(d.taskId(), d.coverage(), d.startedAt());
            tracker.terminal(d.taskId());
        } else if (m instanceof TaskAbandoned a) {
            staging.discard(a.executionId());
            if (!done) {
                tracker.failed(a.taskId(), a.attempt(), a.executionId(), a.workerId(), a.reason(), a.handedBack(), now);
            }
        }
    }

    /** Why a {@code done} cannot be used, or null. */
    private String problem(TaskDone d) {
        StagingArea.Staged s = staging.get(d.executionId());
        if (s.broken || s.chunks != d.chunks() || s.assets != d.assetCount()) {
            return "incomplete results from worker " + d.workerId() + ": " + s.chunks + " of " + d.chunks()
                    + " asset chunks arrived" + (s.broken ? " out of order" : "");
        }
        List<String> expected = tasks.get(d.taskId()).target().collectors();
        List<String> got = d.coverage().stream().map(ServiceCoverage::service).toList();
        if (!expected.equals(got)) {
            return "worker " + d.workerId() + " reported coverage for " + got + " instead of " + expected;
        }
        return null;
    }

    /** Gives a task up: each of its collectors is FAILED with {@code reason}. */
    void giveUp(String taskId, String reason) {
        PlannedTask t = tasks.get(taskId);
        if (t == null || outcomes.containsKey(taskId)) {
            return;
        }
        List<ServiceCoverage> failed = new ArrayList<>();
        for (String c : t.target().collectors()) {
            failed.add(new ServiceCoverage(c, CoverageStatus.FAILED, 0, reason));
        }
        outcomes.put(taskId, failed);
        jobsEnded(taskId, failed, -1);
        failedTasks++;
        tracker.terminal(taskId);
    }

    private void jobsStarted(String taskId, long at) {
        if (started.add(taskId)) {
            WireTarget t = tasks.get(taskId).target();
            for (String c : t.collectors()) {
                work.started(t.provider(), t.accountId(), t.region(), c, at);
            }
        }
    }

    private void jobsEnded(String taskId, List<ServiceCoverage> entries, long startedAt) {
        jobsStarted(taskId, startedAt);
        started.remove(taskId);
        WireTarget t = tasks.get(taskId).target();
        for (ServiceCoverage e : entries) {
            work.finished(t.provider(), t.accountId(), t.region(), e.service(), e.assetCount());
        }
    }

    /** Jobs and calls left at {@code now}, {@code callsReported} by the ended tasks so far. */
    WorkLeft.Snapshot work(long now, long callsReported) {
        return work.snapshot(now, callsReported, false);
    }

    public boolean complete() {
        return outcomes.size() == tasks.size();
    }

    public int done() {
        return outcomes.size();
    }

    public int total() {
        return tasks.size();
    }

    int failedTasks() {
        return failedTasks;
    }

    long duplicates() {
        return duplicates;
    }

    long executions() {
        return executions;
    }

    long ignored() {
        return ignored;
    }

    List<String> workers() {
        return new ArrayList<>(workers);
    }

    /** Tasks without an outcome yet, in plan order. */
    List<PlannedTask> pending() {
        return tasks.values().stream().filter(t -> !outcomes.containsKey(t.taskId())).toList();
    }

    /**
     * The coverage records of the tasks, in plan order: one per account x region, its entries being the
     * parts' entries in part order, then the provider's summary entry if it has one (Azure's
     * {@code azure_full}), as an embedded map writes them.
     */
    public List<CoverageRecord> coverage() {
        Map<String, List<PlannedTask>> byRecord = new LinkedHashMap<>();
        for (PlannedTask t : tasks.values()) {
            byRecord.computeIfAbsent(t.record(), k -> new ArrayList<>()).add(t);
        }
        List<CoverageRecord> out = new ArrayList<>();
        for (List<PlannedTask> parts : byRecord.values()) {
            parts.sort(Comparator.comparingInt(PlannedTask::part));
            List<ServiceCoverage> entries = new ArrayList<>();
            for (PlannedTask p : parts) {
                entries.addAll(outcomes.getOrDefault(p.taskId(), List.of()));
            }
            PlannedTask first = parts.get(0);
            TaskSummary summary = Replanners.summaryOf(first.target().provider());
            if (summary != null) {
                entries.add(summary.summarize(List.copyOf(entries)));
            }
            out.add(new CoverageRecord(first.target().provider(), first.target().accountId(), first.target().region(),
                    entries));
        }
        return out;
    }
}
