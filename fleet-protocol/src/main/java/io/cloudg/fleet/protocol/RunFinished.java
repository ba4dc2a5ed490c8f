package io.cloudg.fleet.protocol;

/** A run wrote its map. */
public record RunFinished(int v, String runId, long finishedAt, long assets, boolean complete, String mapFile)
        implements JournalEntry {
    public RunFinished {
        Wire.version(v);
        Wire.required("run_id", runId);
    }
}
