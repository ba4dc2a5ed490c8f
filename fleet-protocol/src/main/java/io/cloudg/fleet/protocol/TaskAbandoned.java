package io.cloudg.fleet.protocol;

/**
 * An execution ended without results. {@code handedBack}: the worker is shutting down and left the task
 * message uncommitted, so Kafka redelivers it to another worker; otherwise (a timeout) the worker committed
 * it and the coordinator publishes the next attempt elsewhere.
 */
public record TaskAbandoned(int v, String runId, String taskId, int attempt, String executionId, String workerId,
                            String reason, boolean handedBack, long at) implements ResultMessage {
    public TaskAbandoned {
        Wire.execution(v, runId, taskId, attempt, executionId, workerId);
        Wire.required("reason", reason);
    }
}
