package io.cloudg.fleet.coordinator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides when a task needs another attempt, and when to give up on it. Pure: every method takes the
 * time it is called at, so the rules are tested on a fake clock.
 *
 * <ul>
 *   <li>An execution a worker abandoned (it ran past the timeout) or whose results were incomplete: the
 *       task is published again at once, attempt + 1, away from that worker.</li>
 *   <li>An execution that started and then said nothing until its timeout plus {@code lostGrace}: its
 *       worker died or hangs; the same.</li>
 *   <li>A task handed back by a stopping worker: Kafka redelivers it; if no execution starts within
 *       {@code handbackWait}, it is published again.</li>
 *   <li>A failure of an older attempt, or while another execution of the task still runs, changes
 *       nothing (a redelivery after a crash runs the same attempt again; the first result wins).</li>
 *   <li>After {@code maxAttempts} publications, the task is given up, with the last reason.</li>
 *   <li>A task not yet started has no timer: it waits in the queue as long as the fleet is busy.</li>
 * </ul>
 */
public final class AttemptTracker {
    /** What to do about a task. */
    public sealed interface Action permits Retry, GiveUp {
        String taskId();
    }

    /** Publish the task again as {@code attempt}, preferably not to {@code avoidWorker}. */
    public record Retry(String taskId, int attempt, String avoidWorker, String reason) implements Action {
    }

    /** Stop trying; the task's coverage is FAILED with {@code reason}. */
    public record GiveUp(String taskId, String reason) implements Action {
    }

    private record Execution(int attempt, String worker, long deadline) {
    }

    private static final class TaskState {
        int published;
        boolean terminal;
        final Map<String, Execution> live = new LinkedHashMap<>();
        String lastFailure;
        String lastWorker;
        long retryAt = -1;
    }

    private final long timeoutMs;
    private final long lostGraceMs;
    private final long handbackWaitMs;
    private final int maxAttempts;
    private final Map<String, TaskState> tasks = new HashMap<>();
    /**
     * Tasks {@link #due} looks at: every task with a live execution (added when one starts, kept until none is
     * live), and those waiting for a retry; so the running executions are found without a walk over the run.
     */
    private final Set<String> watched = new LinkedHashSet<>();

    public AttemptTracker(long timeoutMs, long lostGraceMs, long handbackWaitMs, int maxAttempts) {
        this.timeoutMs = timeoutMs;
        this.lostGraceMs = lostGraceMs;
        this.handbackWaitMs = handbackWaitMs;
        this.maxAttempts = maxAttempts;
    }

    private TaskState state(String taskId) {
        return tasks.computeIfAbsent(taskId, k -> new TaskState());
    }

    /** {@code attempt} of the task was published (or found published, on resume). */
    public void published(String taskId, int attempt) {
        TaskState s = state(taskId);
        s.published = Math.max(s.published, attempt);
    }

    /** The highest attempt published so far (0: none). */
    public int publishedAttempt(String taskId) {
        TaskState s = tasks.get(taskId);
        return s == null ? 0 : s.published;
    }

    public void started(String taskId, int attempt, String executionId, String worker, long startedAt) {
        TaskState s = state(taskId);
        if (s.terminal) {
            return;
        }
        s.published = Math.max(s.published, attempt);
        s.live.put(executionId, new Execution(attempt, worker, startedAt + timeoutMs + lostGraceMs));
        s.retryAt = -1;
        watched.add(taskId);
    }

    /** The task's results were accepted, or it was given up: nothing more to watch. */
    public void terminal(String taskId) {
        TaskState s = state(taskId);
        s.terminal = true;
        s.live.clear();
        s.retryAt = -1;
        watched.remove(taskId);
    }

    /** An execution ended with results that were not needed (a duplicate). */
    public void ended(String taskId, String executionId) {
        TaskState s = tasks.get(taskId);
        if (s != null) {
            s.live.remove(executionId);
        }
    }

    /** An execution ended without (usable) results. */
    public void failed(String taskId, int attempt, String executionId, String worker, String reason, boolean handedBack,
                       long now) {
        TaskState s = state(taskId);
        s.live.remove(executionId);
        if (s.terminal || attempt < s.published) {
            return;
        }
        s.lastFailure = reason;
        s.lastWorker = worker;
        if (s.live.isEmpty()) {
            s.retryAt = handedBack ? now + handbackWaitMs : now;
            if (handedBack) {
                s.lastFailure = reason + ", and Kafka did not redeliver it within " + handbackWaitMs / 1000.0 + "s";
            }
            watched.add(taskId);
        }
    }

    /** The retries and give-ups due at {@code now}, each returned once. */
    public List<Action> due(long now) {
        List<Action> out = new ArrayList<>();
        for (Iterator<String> it = watched.iterator(); it.hasNext(); ) {
            String id = it.next();
            TaskState s = tasks.get(id);
            for (Iterator<Map.Entry<String, Execution>> ex = s.live.entrySet().iterator(); ex.hasNext(); ) {
                Map.Entry<String, Execution> e = ex.next();
                if (now >= e.getValue().deadline()) {
                    ex.remove();
                    if (e.getValue().attempt() >= s.published) {
                        s.lastFailure = "no result from worker " + e.getValue().worker() + " within the task timeout of "
                                + timeoutMs / 1000.0 + "s plus " + lostGraceMs / 1000.0 + "s";
                        s.lastWorker = e.getValue().worker();
                        if (s.live.isEmpty()) {
                            s.retryAt = now;
                        }
                    }
                }
            }
            if (s.retryAt >= 0 && now >= s.retryAt && s.live.isEmpty()) {
                s.retryAt = -1;
                if (s.published >= maxAttempts) {
                    s.terminal = true;
                    out.add(new GiveUp(id, s.lastFailure + " (gave up after " + s.published + " attempt"
                            + (s.published == 1 ? "" : "s") + ")"));
                } else {
                    s.published++;
                    out.add(new Retry(id, s.published, s.lastWorker, s.lastFailure));
                }
            }
            if (s.terminal || (s.live.isEmpty() && s.retryAt < 0)) {
                it.remove();
            }
        }
        return out;
    }

    /** Running executions per worker (for progress and tests). */
    public Map<String, Integer> runningByWorker() {
        Map<String, Integer> out = new TreeMap<>();
        for (String id : watched) { // every task with a live execution is watched (only those, and a few more)
            for (Execution e : tasks.get(id).live.values()) {
                out.merge(e.worker(), 1, Integer::sum);
            }
        }
        return out;
    }
}
