package io.cloudg.fleet.protocol;

import java.util.List;

/** Part of a run's plan, in plan order. */
public record PlanChunk(int v, String runId, int index, List<PlannedTask> tasks) implements JournalEntry {
    public PlanChunk {
        Wire.version(v);
        Wire.required("run_id", runId);
        Wire.atLeast("index", index, 0);
        tasks = List.copyOf(Wire.required("tasks", tasks));
    }
}
