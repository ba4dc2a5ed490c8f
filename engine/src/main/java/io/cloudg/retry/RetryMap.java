package io.cloudg.retry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.run.EstateKeys;
import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.aws.AwsProvider;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.LogContext;
import io.cloudg.collect.TaskRunner;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.destination.RunStart;
import io.cloudg.diff.AssetOrder;
import io.cloudg.diff.SortedAssets;
import io.cloudg.replan.Replanner;
import io.cloudg.replan.Replanners;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.MapReader;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.RunIds;
import io.cloudg.Estates;
import io.cloudg.output.RunOutput;
import io.cloudg.config.StartupException;
import io.cloudg.run.TaskTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cloudg map --retry-failed PATH}: re-collects only the entries of an earlier map that were PARTIAL or
 * FAILED ({@link RetryPlan}), in this process, through the governor, and writes a new run that merges them
 * with the old successes: the coverage of {@link RetryPlan#merge}, and the assets of both runs merged by
 * identity in bounded memory (both sorted by {@link SortedAssets}; where both runs have an asset, the new
 * one's content wins, so a listing that was cut short and is now complete leaves no duplicate). An asset
 * that only the old, incomplete listing saw is kept: the retry does not know that it is gone. The run block
 * says where each entry came from ({@code retry}). Destinations get the merged run, as if it had been
 * mapped whole.
 */
public final class RetryMap {
    private static final com.fasterxml.jackson.databind.ObjectMapper SKIPPED = new com.fasterxml.jackson.databind.ObjectMapper();

    private static final Logger LOG = LoggerFactory.getLogger("cloudg.map");
    private static final ObjectWriter LINE = new ObjectMapper().writerFor(Asset.class);

    private final CloudGConfig config;
    private final Governor governor;
    private final Path previous;
    private TaskRunner.Listener listener;
    private MapMetrics metrics = MapMetrics.NONE;

    public RetryMap(CloudGConfig config, Governor governor, Path previous) {
        this.config = config;
        this.governor = governor;
        this.previous = previous;
    }

    public RetryMap onTaskDone(TaskRunner.Listener l) {
        this.listener = l;
        return this;
    }

    /** Counts the assets and coverage entries re-collected ({@code cloudg_assets_mapped_total}, ...). */
    public RetryMap metrics(MapMetrics m) {
        this.metrics = java.util.Objects.requireNonNull(m);
        return this;
    }

    /** Runs the retry. Throws {@link StartupException} when the old map cannot be read or nothing can be planned. */
    public InventoryResult map() {
        List<CoverageRecord> oldCoverage;
        com.fasterxml.jackson.databind.JsonNode oldRun;
        Path oldFile;
        List<SkippedAccount> skipped = new ArrayList<>();
        try (MapReader old = MapReader.open(previous)) {
            oldCoverage = old.coverage();
            oldRun = old.run();
            // the accounts the first map left out stay left out: a retry re-runs coverage, not the scoping
            for (com.fasterxml.jackson.databind.JsonNode n : old.summary().path("skipped_accounts")) {
                skipped.add(SKIPPED.convertValue(n, SkippedAccount.class));
            }
            oldFile = old.file();
        } catch (UncheckedIOException e) {
            throw new StartupException("--retry-failed: " + e.getMessage(), e);
        }
        oldFile = inRunDirectory(oldFile, oldRun.path("id").asText(""));
        RetryPlan plan = RetryPlan.of(oldCoverage, oldRun, AwsProvider::discoveryJob);
        List<String> providers = new ArrayList<>();
        oldRun.path("providers").forEach(p -> providers.add(p.asText()));
        for (String p : providers) {
            if (!Replanners.SUPPORTED.contains(p)) {
                throw new StartupException("--retry-failed: re-collecting " + p + " is not available in this build");
            }
        }
        TimeSource time = governor.time();
        RunStart start = new RunStart(RunIds.next(time), "embedded", providers, time.instant());
        long t0 = time.nanoTime();
        ThrottlingStats stats = new ThrottlingStats();
        LOG.info("retrying {} entr(ies) of run {} ({} account x region task(s){})", plan.retried().size(),
                oldRun.path("id").asText(), plan.targets().size(),
                plan.rediscover().isEmpty() ? "" : ", rediscovering " + String.join(", ", plan.rediscover()));
        try (LogContext context = LogContext.run(start.runId());
             RunOutput output = RunOutput.start(config, start, false);
             Replanners open = Replanners.lazy(config, governor,
                     io.cloudg.collect.CallCapacity.of(config.jobConcurrency(), config.aws().itemConcurrency() + 1, governor.config()))) {
            AssetSpool fresh = AssetSpool.temporary(config.outputDir());
            try {
                List<CoverageRecord> freshCoverage = new ArrayList<>();
                List<CollectionTask> tasks = new ArrayList<>();
                for (String p : providers) {
                    if (!plan.rediscover().contains(p)) { // the estate the old run's discovery found
                        EstateKeys.tell(governor, p, Estates.key(p, config, plan.facts().get(p)));
                    }
                }
                for (TaskTarget t : plan.targets()) {
                    try {
                        tasks.add(open.get(t.provider()).taskFor(t));
                    } catch (IllegalArgumentException e) {
                        freshCoverage.add(new CoverageRecord(t.provider(), t.accountId(), t.region(), t.collectors().stream()
                                .map(c -> new ServiceCoverage(c, CoverageStatus.FAILED, 0, "cannot re-plan: " + e.getMessage()))
                                .toList()));
                    }
                }
                Map<String, CoverageEntry> oldEntries = io.cloudg.diff.DiffSide.byId(CoverageEntry.flatten(oldCoverage));
                for (String p : plan.rediscover()) {
                    Replanner provider = open.get(p);
                    ProviderPlan pp;
                    try (TaskLedger.Binding b = TaskLedger.create(p + "/discovery", stats).bind()) {
                        pp = provider.plan();
                    }
                    EstateKeys.tell(governor, p, Estates.key(p, config, provider.discoveryFacts()));
                    freshCoverage.addAll(pp.discovery());
                    for (CollectionTask t : pp.tasks()) {
                        // what discovery found may have changed: the jobs built from it run again too
                        List<CollectorJob> jobs = t.jobs().stream().filter(j -> {
                            CoverageEntry before = oldEntries.get(t.id() + "/" + j.service());
                            return before == null || before.status() != CoverageStatus.SUCCESS
                                    || provider.discoveryJob(j.service());
                        }).toList();
                        if (!jobs.isEmpty()) {
                            tasks.add(new CollectionTask(t.provider(), t.accountId(), t.region(), jobs, t.summary()));
                        }
                    }
                }
                // the configuration's call shapes (its Cloud Control types) order the jobs and feed the progress line
                freshCoverage.addAll(new TaskRunner(config.jobConcurrency(), Coverage.of(governor), stats, fresh, listener,
                        new io.cloudg.run.CallEstimates(io.cloudg.run.PriorRun.NONE, config.callShapes()), metrics).run(tasks));
                List<CoverageRecord> merged = RetryPlan.merge(oldCoverage, freshCoverage);
                Set<String> retried = new java.util.TreeSet<>();
                for (CoverageRecord r : freshCoverage) {
                    r.services().forEach(s -> retried.add(RetryPlan.id(r, s.service())));
                }
                String summaryOfAzure = RetryPlan.summaryName("azure");
                long total = CoverageEntry.flatten(merged).size();
                long kept = CoverageEntry.flatten(merged).stream().filter(e -> !retried.contains(e.id())
                        && !e.service().equals(summaryOfAzure)).count();
                mergeAssets(oldFile, fresh, output);
                Map<String, Object> retry = new LinkedHashMap<>();
                retry.put("of_run", oldRun.path("id").asText());
                retry.put("of_map", oldFile.toAbsolutePath().toString());
                retry.put("retried", new ArrayList<>(retried));
                retry.put("kept", kept);
                retry.put("rediscovered", new ArrayList<>(plan.rediscover()));
                Map<String, Object> extra = new LinkedHashMap<>();
                Map<String, Object> facts = new LinkedHashMap<>(plan.facts());
                for (String p : plan.rediscover()) {
                    if (!open.get(p).discoveryFacts().isEmpty()) {
                        facts.put(p, open.get(p).discoveryFacts());
                    }
                }
                if (!facts.isEmpty()) {
                    extra.put("discovery", facts);
                }
                extra.put("retry", retry);
                LOG.info("retry: {} entr(ies) re-run, {} kept of {}", retried.size(), kept, total);
                return output.finish(governor, start, t0, stats, merged, skipped, extra);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupException("the retry was interrupted", e);
            } finally {
                fresh.delete();
            }
        }
    }

    /** The old run's assets and the retry's, merged by identity into the run's spool (the retry's win). */
    private void mergeAssets(Path oldFile, AssetSpool fresh, RunOutput output) {
        Path tmp = config.outputDir();
        try (MapReader old = MapReader.open(oldFile);
             SortedAssets before = new SortedAssets(old.assets(), tmp, SortedAssets.DEFAULT_BUDGET);
             Stream<Asset> freshAssets = fresh.stream();
             SortedAssets after = new SortedAssets(freshAssets.iterator(), tmp, SortedAssets.DEFAULT_BUDGET)) {
            Asset x = next(before);
            Asset y = next(after);
            Asset last = null;
            while (x != null || y != null) {
                int c = x == null ? 1 : y == null ? -1 : AssetOrder.BY_KEY.compare(x, y);
                Asset take = c > 0 ? y : c < 0 ? x : y;
                if (c >= 0) {
                    y = next(after);
                }
                if (c <= 0) {
                    x = next(before);
                }
                if (last != null && AssetOrder.BY_KEY.compare(last, take) == 0) {
                    continue;
                }
                last = take;
                output.spool().accept(take);
                output.toDestinations(line(take));
            }
        }
    }

    /**
     * The old map by its run directory's path when the path given is the output directory's top-level link to
     * it: that one is replaced when this run is written, the run directory's stays.
     */
    static Path inRunDirectory(Path file, String runId) {
        Path dir = file.toAbsolutePath().getParent();
        Path kept = dir.resolve(io.cloudg.inventory.RunFiles.RUNS).resolve(runId).resolve(file.getFileName());
        try {
            return !runId.isEmpty() && java.nio.file.Files.exists(kept) && java.nio.file.Files.isSameFile(kept, file) ? kept : file;
        } catch (IOException e) {
            return file;
        }
    }

    private static Asset next(Iterator<Asset> it) {
        return it.hasNext() ? it.next() : null;
    }

    private static String line(Asset a) {
        try {
            return LINE.writeValueAsString(a);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
