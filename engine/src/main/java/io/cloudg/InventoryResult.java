package io.cloudg;

import io.cloudg.destination.DestinationStatus;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.report.ThrottlingReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a map found: the coverage records, the summary, the throttling block ({@code null} unless
 * something eventful happened), the path of {@code inventory-map.json}, and the assets, read back lazily
 * from disk (they are never all in memory at once).
 */
public final class InventoryResult {
    private final String runId;
    private final List<CoverageRecord> coverage;
    private final Summary summary;
    private final ThrottlingReport throttling;
    private final Path mapFile;
    private final AssetSpool assets;
    private final List<DestinationStatus> destinations;
    private final Path runDir;
    private final String writeProblem;

    public InventoryResult(String runId, List<CoverageRecord> coverage, Summary summary, ThrottlingReport throttling,
                           Path mapFile, AssetSpool assets) {
        this(runId, coverage, summary, throttling, mapFile, assets, List.of(), null);
    }

    /**
     * @param destinations how each destination fared (empty without destinations)
     * @param runDir the run's directory under {@code runs/}, or null when the map was written on its own
     */
    public InventoryResult(String runId, List<CoverageRecord> coverage, Summary summary, ThrottlingReport throttling,
                           Path mapFile, AssetSpool assets, List<DestinationStatus> destinations, Path runDir) {
        this(runId, coverage, summary, throttling, mapFile, assets, destinations, runDir, null);
    }

    /**
     * @param writeProblem null when the run's files were written as asked; else what could not be written and
     *        where the map is instead ({@code mapFile})
     */
    public InventoryResult(String runId, List<CoverageRecord> coverage, Summary summary, ThrottlingReport throttling,
                           Path mapFile, AssetSpool assets, List<DestinationStatus> destinations, Path runDir,
                           String writeProblem) {
        this.writeProblem = writeProblem;
        this.destinations = List.copyOf(destinations);
        this.runDir = runDir;
        this.runId = runId;
        this.coverage = List.copyOf(coverage);
        this.summary = summary;
        this.throttling = throttling;
        this.mapFile = mapFile;
        this.assets = assets;
    }

    public String runId() { return runId; }
    public List<CoverageRecord> coverage() { return coverage; }
    public Summary summary() { return summary; }
    /** The throttling block, or null when nothing eventful happened. */
    public ThrottlingReport throttling() { return throttling; }
    public Path mapFile() { return mapFile; }
    public long assetCount() { return assets.count(); }
    /** How each destination fared; empty when the run had none. */
    public List<DestinationStatus> destinations() { return destinations; }
    /** The run's directory ({@code runs/<id>/}), or null. */
    public Path runDir() { return runDir; }

    /**
     * Null when the run's files were written as asked; else one line: what could not be written, the system's
     * reason, and where the map is instead ({@link #mapFile()}).
     */
    public String writeProblem() { return writeProblem; }

    /** Whether a destination failed (the map itself is complete; exit code 3). */
    public boolean destinationFailed() {
        return destinations.stream().anyMatch(DestinationStatus::failed);
    }

    /** The assets, streamed from disk. Close the stream. */
    public Stream<Asset> assets() {
        return assets.stream();
    }

    /** Whether every service entry of every record is SUCCESS. */
    public boolean complete() {
        return summary.complete();
    }

    /** Service entries by status. */
    public Map<CoverageStatus, Integer> services() {
        return summary.services();
    }

    /** Removes the temporary asset file (the map file stays). */
    public void discardSpool() {
        assets.delete();
    }
}
