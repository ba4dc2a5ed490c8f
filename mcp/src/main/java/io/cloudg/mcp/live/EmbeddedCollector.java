package io.cloudg.mcp.live;

import io.cloudg.run.EstateKeys;
import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsClients;
import io.cloudg.aws.AwsCollector;
import io.cloudg.aws.AwsProvider;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.TaskRunner;
import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.Estates;
import io.cloudg.run.ProviderPlan;
import io.cloudg.config.StartupException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Collects in this process, through the server's governor (so every live call is paced with the same
 * buckets, breakers and budgets as any other): a map is the embedded {@link InventoryMapper} on a copy of
 * the configuration narrowed to the request; a slice plans the AWS estate with just that account, region
 * and collector and runs only that account's task.
 */
public final class EmbeddedCollector implements Collector {
    /** AWS jobs a slice may name besides the catalog collectors. */
    static final List<String> SLICE_SWEEPS = List.of("cloudcontrol", "tagging");

    private final CloudGConfig base;
    private final Governor governor;

    public EmbeddedCollector(CloudGConfig base, Governor governor) {
        this.base = base;
        this.governor = governor;
    }

    @Override
    public InventoryResult collect(CollectSpec spec, Path outDir) throws InterruptedException {
        if (spec.slice() != null) {
            return slice(spec.slice(), outDir);
        }
        // a dataset is its own record: one run in its directory, and not a run of the configured destinations
        CloudGConfig.Builder b = base.toBuilder().providers(spec.providers().toArray(String[]::new)).outputDir(outDir)
                .output(new io.cloudg.destination.OutputSettings(1, List.of()));
        if (!spec.regions().isEmpty()) {
            b.aws(a -> a.withRegions(spec.regions()));
        }
        if (!spec.collectors().isEmpty()) {
            b.aws(a -> a.withCollectors(spec.collectors(), List.of()));
        }
        if (!spec.sweeps()) {
            b.aws(a -> a.withSweeps(false, false));
        }
        InventoryResult r = new InventoryMapper(b.build(), governor).mapInventory();
        if (Thread.interrupted()) {
            throw new InterruptedException("the collection was cancelled");
        }
        return r;
    }

    /**
     * Validates a slice before anything is called: the provider is available, the collector exists, and
     * the region fits it ({@code global} exactly for global collectors). Returns the error, or null.
     */
    public static String checkSlice(CollectSpec.Slice s) {
        if (!s.provider().equals("aws")) {
            return "collect_assets for " + s.provider() + " is not available in this build (aws only)";
        }
        if (SLICE_SWEEPS.contains(s.service())) {
            return s.region().equals("global") ? "the " + s.service() + " sweep is regional: pass a region like us-east-1" : null;
        }
        AwsCollector c = AwsCatalog.all().stream().filter(x -> x.name().equals(s.service())).findFirst().orElse(null);
        if (c == null) {
            return "service must be one of " + String.join(", ", AwsCatalog.all().stream().map(AwsCollector::name).toList())
                    + ", " + String.join(", ", SLICE_SWEEPS) + ", but was " + s.service();
        }
        if (c.global() != s.region().equals("global")) {
            return c.global() ? s.service() + " is a global service: pass region global"
                    : s.service() + " is regional: pass a region like us-east-1, not global";
        }
        return null;
    }

    @SuppressWarnings("try") // the ledger binding is used for its scope only
    private InventoryResult slice(CollectSpec.Slice s, Path out) throws InterruptedException {
        String problem = checkSlice(s);
        if (problem != null) {
            throw new StartupException(problem);
        }
        long t0 = governor.time().nanoTime();
        Instant started = Instant.ofEpochMilli(governor.time().epochMillis());
        AwsSettings a = base.aws();
        boolean global = s.region().equals("global");
        AwsSettings narrowed = a.toBuilder().regions(List.of(global ? a.defaultRegion() : s.region())).org(false)
                .accounts(List.of(s.account())).collectors(List.of(s.service())).excludeCollectors(List.of())
                .cloudControlSweep(s.service().equals("cloudcontrol")).taggingSweep(s.service().equals("tagging"))
                .organizationalUnits(List.of()).excludeOrganizationalUnits(List.of()).excludeAccounts(List.of())
                .excludeRegions(List.of()).build();
        ThrottlingStats run = new ThrottlingStats();
        AssetSpool spool = AssetSpool.temporary(out);
        List<CoverageRecord> coverage = new ArrayList<>();
        try (AwsClients clients = new AwsClients(narrowed, governor, 16)) {
            ProviderPlan plan;
            AwsProvider provider = new AwsProvider(narrowed, clients);
            try (TaskLedger.Binding b = TaskLedger.create("aws/discovery", run).bind()) {
                plan = provider.plan();
            }
            if (provider.managementAccountId() != null) {
                EstateKeys.tell(governor, "aws", Estates.key("aws", base,
                        Map.of(io.cloudg.run.TaskTarget.MANAGEMENT_ACCOUNT, provider.managementAccountId())));
            }
            coverage.addAll(plan.discovery());
            List<CollectionTask> tasks = plan.tasks().stream()
                    .filter(t -> t.accountId().equals(s.account()) && t.region().equals(s.region())).toList();
            if (tasks.isEmpty()) {
                coverage.add(new CoverageRecord("aws", s.account(), s.region(), List.of(new ServiceCoverage(s.service(),
                        CoverageStatus.FAILED, 0, "no task for " + s.account() + "/" + s.region() + " in the plan"))));
            }
            coverage.addAll(new TaskRunner(1, Coverage.of(governor), run, spool, null).run(tasks));
        }
        ThrottlingReport report = governor.report(run);
        ThrottlingReport throttling = report.eventful() ? report : null;
        double seconds = (governor.time().nanoTime() - t0) / 1e9;
        Summary summary = Summary.of(spool.count(), spool.countByProvider(), coverage, seconds, throttling == null ? null : throttling.summary());
        Map<String, Object> runInfo = new LinkedHashMap<>();
        String runId = UUID.randomUUID().toString();
        runInfo.put("id", runId);
        runInfo.put("mode", "slice");
        runInfo.put("providers", List.of(s.provider()));
        runInfo.put("slice", Map.of("provider", s.provider(), "account", s.account(), "region", s.region(), "service", s.service()));
        runInfo.put("started_at", started.toString());
        runInfo.put("finished_at", Instant.ofEpochMilli(governor.time().epochMillis()).toString());
        runInfo.put("governor", governor.store().status().map(io.cloudg.resilience.spi.StoreStatus::mode).orElse("memory"));
        runInfo.put("governor_store", governor.store().describe());
        Path file = InventoryMapWriter.write(out, runInfo, summary, coverage, throttling, spool);
        return new InventoryResult(runId, coverage, summary, throttling, file, spool);
    }
}
