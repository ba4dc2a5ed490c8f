package io.cloudg.testkit;

import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.RunFiles;
import io.cloudg.inventory.Summary;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-built runs: a run written into an output directory as {@code cloudg map} lays it out, from given assets and coverage. */
public final class TestRuns {
    private TestRuns() {
    }

    public static RunFiles.Written write(Path out, String runId, int keep, List<Asset> assets, List<CoverageRecord> coverage) {
        return write(out, runId, "2026-01-01T00:01:00Z", keep, assets, coverage);
    }

    /** As {@link #write(Path, String, int, List, List)}, the run having finished at {@code finishedAt} (ISO-8601). */
    public static RunFiles.Written write(Path out, String runId, String finishedAt, int keep, List<Asset> assets,
                                         List<CoverageRecord> coverage) {
        AssetSpool spool = AssetSpool.temporary(out);
        assets.forEach(spool::accept);
        Map<String, Object> run = runBlock(runId, finishedAt);
        RunFiles.Written w = RunFiles.write(out, keep, run, Summary.of(spool.count(), coverage, 60, null), coverage, null, spool);
        spool.delete();
        return w;
    }

    /** The {@code run} block of an embedded AWS map {@code runId} that finished at {@code finishedAt} (ISO-8601). */
    public static Map<String, Object> runBlock(String runId, String finishedAt) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("id", runId);
        run.put("mode", "embedded");
        run.put("providers", List.of("aws"));
        run.put("started_at", "2026-01-01T00:00:00Z");
        run.put("finished_at", finishedAt);
        run.put("governor", "memory");
        return run;
    }
}
