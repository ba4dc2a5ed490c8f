package io.cloudg;

import io.cloudg.aws.AwsClients;
import io.cloudg.aws.AwsProvider;
import io.cloudg.azure.AzureProvider;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.LogContext;
import io.cloudg.collect.TaskRunner;
import io.cloudg.gcp.GcpProvider;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.inventory.Summary;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.Resilience;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.ProviderPlanner;
import io.cloudg.run.StartupException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps an estate in this process (the embedded mode): discovers each configured provider, runs every
 * collection task on a thread pool, all calls through one governor, and writes
 * {@code inventory-map.json}.
 *
 * <pre>{@code
 * CloudGConfig config = CloudGConfig.load(Path.of("cloudg.yaml"));
 * InventoryResult result = new InventoryMapper(config).mapInventory();
 * if (result.throttling() != null) result.throttling().messages().forEach(System.out::println);
 * }</pre>
 */
public final class InventoryMapper {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.map");
    private static final Logger THROTTLING = LoggerFactory.getLogger("cloudg.throttling");

    private final CloudGConfig config;
    private final Governor governor;
    private final Map<String, Function<CloudGConfig, ProviderPlanner>> planners = new LinkedHashMap<>();
    private TaskRunner.Listener listener;
    private MapMetrics metrics = MapMetrics.NONE;

    /** A mapper using the process-wide governor, configured from {@code config.ratelimit()}. */
    public InventoryMapper(CloudGConfig config) {
        this(config, Resilience.configure(config.ratelimit()));
    }

    /** A mapper using {@code governor} (tests, fleets, embedders with their own). */
    public InventoryMapper(CloudGConfig config, Governor governor) {
        this.config = config;
        this.governor = governor;
        planners.put("aws", c -> awsPlanner(c, governor));
        planners.put("azure", c -> AzureProvider.planner(c.azure(), governor));
        planners.put("gcp", c -> GcpProvider.planner(c.gcp(), governor, c.workers()));
    }

    /** Hears of each finished task (progress lines, progress bars). */
    public InventoryMapper onTaskDone(TaskRunner.Listener l) {
        this.listener = l;
        return this;
    }

    /** Counts the assets and coverage entries mapped ({@code cloudg_assets_mapped_total}, ...). */
    public InventoryMapper metrics(MapMetrics m) {
        this.metrics = java.util.Objects.requireNonNull(m);
        return this;
    }

    public Governor governor() {
        return governor;
    }

    private ProviderPlanner awsPlanner(CloudGConfig c, Governor g) {
        AwsClients clients = new AwsClients(c.aws(), g, Math.max(64, c.workers() * (c.aws().itemConcurrency() + 1)));
        return ProviderPlanner.of(new AwsProvider(c.aws(), clients)::plan, clients::close);
    }

    /** Maps every configured provider. Throws {@link StartupException} when the run cannot start. */
    public InventoryResult mapInventory() {
        if (config.providers().isEmpty()) {
            throw new StartupException("no provider to map: set providers (aws, azure, gcp) or pass -p");
        }
        String runId = UUID.randomUUID().toString();
        try (LogContext context = LogContext.run(runId)) {
            return map(runId);
        }
    }

    private InventoryResult map(String runId) {
        TimeSource time = governor.time();
        Instant started = time.instant();
        long t0 = time.nanoTime();
        ThrottlingStats run = new ThrottlingStats();
        Path out = config.outputDir();
        AssetSpool spool = AssetSpool.temporary(out);
        List<ProviderPlanner> open = new ArrayList<>();
        List<CoverageRecord> coverage = new ArrayList<>();
        try {
            List<CollectionTask> tasks = new ArrayList<>();
            for (String p : config.providers()) {
                Function<CloudGConfig, ProviderPlanner> make = planners.get(p);
                if (make == null) {
                    throw new StartupException("mapping " + p + " is not available in this build");
                }
                ProviderPlanner planner = make.apply(config);
                open.add(planner);
                ProviderPlan plan;
                try (TaskLedger.Binding b = TaskLedger.create(p + "/discovery", run).bind()) {
                    plan = planner.plan();
                }
                coverage.addAll(plan.discovery());
                tasks.addAll(plan.tasks());
                LOG.info("{}: {} task(s) planned", p, plan.tasks().size());
            }
            coverage.addAll(new TaskRunner(config.workers(), Coverage.of(governor), run, spool, listener, metrics).run(tasks));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("the map was interrupted", e);
        } finally {
            for (ProviderPlanner p : open) {
                try {
                    p.close();
                } catch (RuntimeException e) {
                    LOG.debug("closing a provider failed", e);
                }
            }
        }
        ThrottlingReport report = governor.report(run);
        ThrottlingReport throttling = report.eventful() ? report : null;
        if (throttling != null) {
            throttling.messages().forEach(m -> THROTTLING.warn("Throttling: {}", m));
        }
        double seconds = (time.nanoTime() - t0) / 1e9;
        Summary summary = Summary.of(spool.count(), coverage, seconds, throttling == null ? null : throttling.summary());
        Map<String, Object> runInfo = new LinkedHashMap<>();
        runInfo.put("id", runId);
        runInfo.put("mode", "embedded");
        runInfo.put("providers", config.providers());
        runInfo.put("started_at", started.toString());
        runInfo.put("finished_at", time.instant().toString());
        runInfo.put("governor", governor.store().describe());
        Path file = InventoryMapWriter.write(out, runInfo, summary, coverage, throttling, spool);
        LOG.info("wrote {} ({} assets, {} records)", file, spool.count(), coverage.size());
        return new InventoryResult(runId, coverage, summary, throttling, file, spool);
    }

    /** {@link #mapInventory()} on another thread. */
    public CompletableFuture<InventoryResult> mapInventoryAsync() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return mapInventory();
            } catch (RuntimeException e) {
                throw new CompletionException(e);
            }
        }, r -> {
            Thread t = new Thread(r, "cloudg-map");
            t.setDaemon(true);
            t.start();
        });
    }
}
