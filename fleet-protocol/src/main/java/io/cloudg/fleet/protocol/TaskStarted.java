package io.cloudg.fleet.protocol;

/** A worker began an execution of a task; the coordinator's timeout clock for it starts at {@code startedAt}. */
public record TaskStarted(int v, String runId, String taskId, int attempt, String executionId, String workerId,
                          long startedAt) implements ResultMessage {
    public TaskStarted {
        Wire.execution(v, runId, taskId, attempt, executionId, workerId);
    }
}
