package io.cloudg.fleet.protocol;

import io.cloudg.inventory.ServiceCoverage;
import java.util.List;

/**
 * An execution finished and every one of its asset chunks was acknowledged by Kafka before this was sent.
 *
 * @param chunks how many {@code assets} messages precede this one
 * @param assetCount how many assets they hold
 * @param coverage one entry per collector of the task, in the task's order, judged by the same rules as an
 *        embedded map ({@link io.cloudg.collect.TaskRunner#runJob})
 * @param throttling the execution's throttling counters
 */
public record TaskDone(int v, String runId, String taskId, int attempt, String executionId, String workerId,
                       int chunks, long assetCount, List<ServiceCoverage> coverage, WireThrottling throttling,
                       long startedAt, long finishedAt) implements ResultMessage {
    public TaskDone {
        Wire.execution(v, runId, taskId, attempt, executionId, workerId);
        Wire.atLeast("chunks", chunks, 0);
        Wire.atLeast("asset_count", assetCount, 0L);
        if (coverage == null || coverage.isEmpty()) {
            throw Wire.missing("coverage");
        }
        for (ServiceCoverage s : coverage) {
            Wire.required("coverage entry", s);
            Wire.required("coverage entry service", s.service());
            Wire.required("coverage entry status", s.status());
        }
        coverage = List.copyOf(coverage);
        throttling = throttling == null ? WireThrottling.NONE : throttling;
    }
}
