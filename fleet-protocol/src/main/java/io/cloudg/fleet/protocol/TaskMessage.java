package io.cloudg.fleet.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One task for a worker, on the tasks topic: a run's task id ({@code aws/123456789012/us-east-1#1}),
 * which attempt this is, the serializable target, how long it may run, and (for a retry) the worker
 * that gave it up, so that it runs elsewhere.
 *
 * @param v protocol version
 * @param runId the run
 * @param taskId the task, unique within the run; results are deduplicated by it
 * @param attempt 1 for the first publication, +1 for each retry
 * @param target what to collect
 * @param timeoutMs how long an execution may run before the worker abandons it
 * @param publishedAt epoch millis
 * @param avoidWorker the worker that abandoned the previous attempt, or null
 * @param cost the calls the task is expected to make, 0 when not known (absent in messages of builds
 *        before it: version 1 readers ignore it); a worker with several tasks waiting takes the costliest first
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskMessage(int v, String runId, String taskId, int attempt, WireTarget target, long timeoutMs,
                          long publishedAt, String avoidWorker, long cost) {
    public TaskMessage {
        Wire.version(v);
        Wire.required("run_id", runId);
        Wire.required("task_id", taskId);
        Wire.atLeast("attempt", attempt, 1);
        Wire.required("target", target);
        Wire.atLeast("timeout_ms", timeoutMs, 1L);
        Wire.atLeast("cost", cost, 0L);
    }

    public static TaskMessage first(String runId, String taskId, WireTarget target, long timeoutMs, long now) {
        return first(runId, taskId, target, timeoutMs, now, 0);
    }

    /** The first attempt of a task expected to make {@code cost} calls. */
    public static TaskMessage first(String runId, String taskId, WireTarget target, long timeoutMs, long now, long cost) {
        return new TaskMessage(Wire.VERSION, runId, taskId, 1, target, timeoutMs, now, null, cost);
    }

    /** The first attempt of a planned task. */
    public static TaskMessage first(String runId, PlannedTask t, long timeoutMs, long now) {
        return first(runId, t.taskId(), t.target(), timeoutMs, now, t.cost());
    }

    /** The next attempt, to run anywhere but on {@code avoid} (may be null). */
    public TaskMessage retry(int nextAttempt, long now, String avoid) {
        return new TaskMessage(Wire.VERSION, runId, taskId, nextAttempt, target, timeoutMs, now, avoid, cost);
    }
}
