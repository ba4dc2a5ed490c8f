package io.cloudg.fleet.protocol;

import io.cloudg.inventory.Asset;
import java.util.List;

/** Assets of one execution, numbered from 0 so that a gap or a repeat is noticed. */
public record AssetChunk(int v, String runId, String taskId, String executionId, int seq, List<Asset> assets)
        implements ResultMessage {
    public AssetChunk {
        Wire.version(v);
        Wire.required("run_id", runId);
        Wire.required("task_id", taskId);
        Wire.required("execution_id", executionId);
        Wire.atLeast("seq", seq, 0);
        if (assets == null || assets.isEmpty()) {
            throw Wire.missing("assets");
        }
        for (Asset a : assets) {
            Wire.required("assets entry", a);
        }
        assets = List.copyOf(assets);
    }
}
