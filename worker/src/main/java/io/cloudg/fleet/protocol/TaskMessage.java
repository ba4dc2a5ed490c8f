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
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskMessage(int v, String runId, String taskId, int attempt, WireTarget target, long timeoutMs,
                          long publishedAt, String avoidWorker) {
    public TaskMessage {
        Wire.version(v);
        Wire.required("run_id", runId);
        Wire.required("task_id", taskId);
        Wire.atLeast("attempt", attempt, 1);
        Wire.required("target", target);
        Wire.atLeast("timeout_ms", timeoutMs, 1L);
    }

    public static TaskMessage first(String runId, String taskId, WireTarget target, long timeoutMs, long now) {
        return new TaskMessage(Wire.VERSION, runId, taskId, 1, target, timeoutMs, now, null);
    }

    /** The next attempt, to run anywhere but on {@code avoid} (may be null). */
    public TaskMessage retry(int nextAttempt, long now, String avoid) {
        return new TaskMessage(Wire.VERSION, runId, taskId, nextAttempt, target, timeoutMs, now, avoid);
    }
}
