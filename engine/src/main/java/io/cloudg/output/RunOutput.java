package io.cloudg.output;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.config.StartupException;
import io.cloudg.destination.DestinationStatus;
import io.cloudg.destination.Destinations;
import io.cloudg.destination.RunEnd;
import io.cloudg.destination.RunStart;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.RunFiles;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.Estates;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one run's results go, the same for an embedded map, a fleet's coordinator and a retry: the
 * spool on disk, the configured destinations fed while the run streams ({@link #start}), then at the end
 * the destinations finished and the files written ({@link #finish}): {@code runs/<id>/} with
 * {@code inventory-map.json}, {@code assets.jsonl} and {@code coverage.jsonl}, the top-level links, and
 * the retention. A destination that failed is listed in the run block ({@code destinations}) and in the
 * result; the JSON map is written whatever happened to it. A file that cannot be written does not lose the
 * finished run: the map goes where it can ({@link RunFiles#write}) and the result says where and why
 * ({@link InventoryResult#writeProblem()}); a run written nowhere keeps its complete spool and
 * {@link RunFiles.NotWrittenException} names it.
 */
public final class RunOutput implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.map");
    private static final Logger THROTTLING = LoggerFactory.getLogger("cloudg.throttling");

    private final CloudGConfig config;
    private final AssetSpool spool;
    private final Destinations destinations;
    private final boolean createdOutputDir;
    private boolean finished;

    private RunOutput(CloudGConfig config, AssetSpool spool, Destinations destinations, boolean createdOutputDir) {
        this.config = config;
        this.spool = spool;
        this.destinations = destinations;
        this.createdOutputDir = createdOutputDir;
    }

    /**
     * A spool in the output directory and the configured destinations, told the run started.
     *
     * @param tee whether the spool's lines go to the destinations as they are written (false when the
     *        assets are handed over at the end, as a retry does with its merged assets)
     * @throws StartupException when a destination cannot be reached
     */
    public static RunOutput start(CloudGConfig config, RunStart start, boolean tee) {
        Destinations d = config.output().destinations().isEmpty() ? Destinations.none()
                : Destinations.open(config.output().destinations(), start, batchSize(config));
        boolean existed = java.nio.file.Files.isDirectory(config.outputDir());
        AssetSpool spool = AssetSpool.temporary(config.outputDir());
        if (tee && !d.isEmpty()) {
            spool.tee(d::accept);
        }
        return new RunOutput(config, spool, d, !existed);
    }

    private static int batchSize(CloudGConfig config) {
        return config.output().destinations().stream()
                .mapToInt(io.cloudg.destination.DestinationSpec::batchSize)
                .min().orElse(Destinations.DEFAULT_BATCH);
    }

    public AssetSpool spool() {
        return spool;
    }

    /** Hands one asset line to the destinations (when they are not fed by the spool). */
    public void toDestinations(String assetLine) {
        destinations.accept(assetLine);
    }

    /**
     * Finishes the destinations, then writes the run's files; {@code run} gets a {@code destinations} list
     * when there are any.
     */
    public InventoryResult finish(String runId, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                                  ThrottlingReport throttling, Instant finishedAt) {
        finished = true;
        Map<String, Object> block = new LinkedHashMap<>(run);
        List<DestinationStatus> statuses = List.of();
        if (!destinations.isEmpty()) {
            statuses = destinations.finish(new RunEnd(runId, finishedAt, block, summary, coverage, throttling));
            block.put("destinations", statuses);
            for (DestinationStatus s : statuses) {
                if (s.failed()) {
                    LOG.warn("destination {} FAILED: {} ({} assets written before)", s.target(), s.error(), s.assetsWritten());
                } else {
                    LOG.info("destination {}: {} assets written", s.target(), s.assetsWritten());
                }
            }
        }
        RunFiles.Written w = RunFiles.write(config.outputDir(), config.output().keepRuns(), block, summary, coverage,
                throttling, spool);
        if (w.problem() == null) {
            LOG.info("wrote {} ({} assets, {} records; run directory {})", w.mapFile(), spool.count(), coverage.size(), w.runDir());
        } else {
            LOG.warn("{}", w.problem());
        }
        return new InventoryResult(runId, coverage, summary, throttling, w.mapFile(), spool, statuses, w.runDir(), w.problem());
    }

    /**
     * Finishes a run mapped in this process: the throttling report of {@code stats} (logged and attached when
     * eventful), the summary, and the run block ({@code id}, {@code mode}, {@code providers},
     * {@code started_at}, {@code finished_at}, {@code governor}, then {@code extra}).
     */
    public InventoryResult finish(Governor governor, RunStart start, long startNanos, ThrottlingStats stats,
                                  List<CoverageRecord> coverage, List<SkippedAccount> skipped,
                                  Map<String, Object> extra) {
        TimeSource time = governor.time();
        ThrottlingReport report = governor.report(stats);
        ThrottlingReport throttling = report.eventful() ? report : null;
        if (throttling != null) {
            throttling.messages().forEach(m -> THROTTLING.warn("Throttling: {}", m));
        }
        double seconds = (time.nanoTime() - startNanos) / 1e9;
        Summary summary = Summary.of(spool.count(), spool.countByProvider(), coverage, skipped, seconds,
                throttling == null ? null : throttling.summary());
        Instant finishedAt = time.instant();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("id", start.runId());
        run.put("mode", start.mode());
        run.put("providers", start.providers());
        run.put("started_at", start.startedAt().toString());
        run.put("finished_at", finishedAt.toString());
        run.put("governor", governor.store().status().map(StoreStatus::mode).orElse("memory"));
        run.put("governor_store", governor.store().describe());
        Map<String, Object> learned = Estates.runBlock(governor);
        if (learned != null) {
            run.put("learned_rates", learned);
        }
        run.putAll(extra);
        return finish(start.runId(), run, summary, coverage, throttling, finishedAt);
    }

    /**
     * Unless the run finished: stops the destinations (nothing more is written; a database's run row stays
     * {@code running}) and removes the spool. A finished run's spool is the result's to discard.
     */
    @Override
    public void close() {
        if (!finished) {
            try {
                destinations.close();
            } finally {
                spool.delete();
                if (createdOutputDir) { // a run that did not finish leaves no directory it made behind
                    try {
                        java.nio.file.Files.deleteIfExists(config.outputDir());
                    } catch (java.io.IOException notEmpty) {
                        LOG.debug("kept {}: {}", config.outputDir(), notEmpty.getMessage());
                    }
                }
            }
        }
    }
}
