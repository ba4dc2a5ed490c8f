package io.cloudg.destination;

import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.report.ThrottlingReport;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a destination hears when a run ends: the run block of the map, its summary, its coverage records and
 * its throttling report (null when nothing eventful happened).
 */
public record RunEnd(String runId, Instant finishedAt, Map<String, Object> run, Summary summary,
                     List<CoverageRecord> coverage, ThrottlingReport throttling) {
    public RunEnd {
        run = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(run));
        coverage = List.copyOf(coverage);
    }
}
