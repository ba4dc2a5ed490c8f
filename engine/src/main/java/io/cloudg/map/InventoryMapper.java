package io.cloudg.map;

import io.cloudg.run.EstateKeys;
import io.cloudg.CloudGConfig;
import io.cloudg.Governors;
import io.cloudg.InventoryResult;
import io.cloudg.aws.AwsClients;
import io.cloudg.aws.AwsProvider;
import io.cloudg.azure.AzureProvider;
import io.cloudg.collect.CallCapacity;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.LogContext;
import io.cloudg.collect.TaskRunner;
import io.cloudg.gcp.GcpProvider;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.run.CallEstimates;
import io.cloudg.Estates;
import io.cloudg.run.PriorRun;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.ProviderPlanner;
import io.cloudg.run.RunIds;
import io.cloudg.output.RunOutput;
import io.cloudg.config.StartupException;
import io.cloudg.run.TaskTarget;
import io.cloudg.destination.RunStart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps an estate in this process (the embedded mode): discovers each configured provider, runs every
 * collection task's jobs on virtual threads ({@link TaskRunner}), all calls through one governor, and writes
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

    private final CloudGConfig config;
    private final Governor governor;
    private final Map<String, Function<CloudGConfig, ProviderPlanner>> planners = new LinkedHashMap<>();
    private TaskRunner.Listener listener;
    private java.nio.file.Path retryOf;
    private MapMetrics metrics = MapMetrics.NONE;

    /**
     * A mapper with a governor of its own, built from {@code config.ratelimit()} the way every command builds
     * one ({@link Governors#create(io.cloudg.resilience.config.RateLimitConfig)}); closing it is the caller's
     * ({@code mapper.governor().close()}).
     */
    public InventoryMapper(CloudGConfig config) {
        this(config, Governors.create(config.ratelimit()));
    }

    /** A mapper using {@code governor} (tests, fleets, embedders with their own). */
    public InventoryMapper(CloudGConfig config, Governor governor) {
        this.config = config;
        this.governor = governor;
        planners.put("aws", c -> awsPlanner(c, governor));
        planners.put("azure", c -> AzureProvider.planner(c.azure(), governor));
        planners.put("gcp", c -> GcpProvider.planner(c.gcp(), governor, CallCapacity.of(c.jobConcurrency(), 1, governor.config())));
    }

    /** Hears of each finished task (progress lines, progress bars). */
    public InventoryMapper onTaskDone(TaskRunner.Listener l) {
        this.listener = l;
        return this;
    }

    /**
     * Makes {@link #mapInventory()} re-collect only the entries of the map at {@code previous} (a map file, a
     * run directory or an output directory) that were PARTIAL or FAILED, and write a run merging them with
     * its successes ({@link io.cloudg.retry.RetryMap}); null maps as usual.
     */
    public InventoryMapper retryFailed(java.nio.file.Path previous) {
        this.retryOf = previous;
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
        // a job's listing call and its per-item calls at once, at most
        AwsClients clients = new AwsClients(c.aws(), g, CallCapacity.of(c.jobConcurrency(), c.aws().itemConcurrency() + 1, g.config()));
        AwsProvider provider = new AwsProvider(c.aws(), clients);
        return ProviderPlanner.of(provider::plan, clients::close, () -> {
            String m = provider.managementAccountId();
            return m == null ? Map.of() : Map.of(TaskTarget.MANAGEMENT_ACCOUNT, m);
        });
    }

    /** Maps every configured provider. Throws {@link StartupException} when the run cannot start. */
    public InventoryResult mapInventory() {
        if (retryOf != null) {
            return new io.cloudg.retry.RetryMap(config, governor, retryOf).onTaskDone(listener).metrics(metrics).map();
        }
        if (config.providers().isEmpty()) {
            throw new StartupException("no provider to map: set providers (aws, azure, gcp) or pass -p");
        }
        TimeSource time = governor.time();
        RunStart start = new RunStart(RunIds.next(time), "embedded", config.providers(), time.instant());
        try (LogContext context = LogContext.run(start.runId())) {
            return map(start);
        }
    }

    private InventoryResult map(RunStart start) {
        TimeSource time = governor.time();
        long t0 = time.nanoTime();
        ThrottlingStats run = new ThrottlingStats();
        List<ProviderPlanner> open = new ArrayList<>();
        List<CoverageRecord> coverage = new ArrayList<>();
        List<SkippedAccount> skipped = new ArrayList<>();
        Map<String, Object> facts = new LinkedHashMap<>();
        // the previous map's sizes order the jobs (heaviest first); read before this run writes anything
        CallEstimates estimates = new CallEstimates(PriorRun.read(config.outputDir()), config.callShapes());
        try (RunOutput output = RunOutput.start(config, start, true)) {
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
                    if (!planner.facts().isEmpty()) {
                        facts.put(p, planner.facts());
                    }
                    // the governor starts this provider's leaves from what it learned of this estate
                    EstateKeys.tell(governor, p, Estates.key(p, config, planner.facts()));
                    coverage.addAll(plan.discovery());
                    skipped.addAll(plan.skipped());
                    tasks.addAll(plan.tasks());
                    LOG.info("{}: {} task(s) planned", p, plan.tasks().size());
                }
                coverage.addAll(new TaskRunner(config.jobConcurrency(), Coverage.of(governor), run, output.spool(), listener,
                        estimates, metrics).run(tasks));
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
            return output.finish(governor, start, t0, run, coverage, skipped, facts.isEmpty() ? Map.of() : Map.of("discovery", facts));
        }
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
