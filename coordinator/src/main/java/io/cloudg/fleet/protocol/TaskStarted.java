package io.cloudg.fleet.protocol;

/** A worker began an execution of a task; the coordinator's timeout clock for it starts at {@code startedAt}. */
public record TaskStarted(int v, String runId, String taskId, int attempt, String executionId, String workerId,
                          long startedAt) implements ResultMessage {
    public TaskStarted {
        Wire.version(v);
        Wire.required("run_id", runId);
        Wire.required("task_id", taskId);
        Wire.atLeast("attempt", attempt, 1);
        Wire.required("execution_id", executionId);
        Wire.required("worker_id", workerId);
    }
}
