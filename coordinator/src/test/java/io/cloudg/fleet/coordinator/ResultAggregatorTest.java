package io.cloudg.fleet.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.protocol.AssetChunk;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.fleet.protocol.TaskAbandoned;
import io.cloudg.fleet.protocol.TaskDone;
import io.cloudg.fleet.protocol.TaskStarted;
import io.cloudg.fleet.protocol.WireCounts;
import io.cloudg.fleet.protocol.WireTarget;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.report.ThrottlingStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deduplication: exactly one execution per task reaches the map, whatever was delivered twice. */
class ResultAggregatorTest {
    @TempDir
    Path dir;

    static final String R = "aws/111111111111/us-east-1";
    final PlannedTask part0 = new PlannedTask(R + "#0", R, 0,
            new WireTarget("aws", "111111111111", "us-east-1", List.of("vpc", "subnets"), Map.of()), false);
    final PlannedTask part1 = new PlannedTask(R + "#1", R, 1,
            new WireTarget("aws", "111111111111", "us-east-1", List.of("functions"), Map.of()), false);

    AssetSpool spool;
    StagingArea staging;
    AttemptTracker tracker;
    ThrottlingStats stats;
    ResultAggregator agg;

    @BeforeEach
    void setUp() {
        spool = AssetSpool.temporary(dir);
        staging = new StagingArea(dir.resolve("staging"));
        tracker = new AttemptTracker(60_000, 10_000, 30_000, 3);
        stats = new ThrottlingStats();
        agg = new ResultAggregator(List.of(part0, part1), spool, staging, tracker, new FleetThrottling(stats));
        tracker.published(part0.taskId(), 1);
        tracker.published(part1.taskId(), 1);
    }

    @AfterEach
    void tearDown() {
        staging.close();
        spool.delete();
    }

    static Asset asset(String id) {
        return new Asset("aws", "111111111111", "us-east-1", "ec2", "AWS::EC2::VPC", id, null, null, Map.of(), Map.of());
    }

    static WireThrottling calls(long n) {
        return new WireThrottling(Map.of("aws/111111111111/us-east-1/ec2", new WireCounts(n, 0, 0, 0, 0, 0, 0, 0)), Map.of());
    }

    TaskDone done(PlannedTask t, String exec, int chunks, long assets, long calls) {
        List<ServiceCoverage> coverage = t.target().collectors().stream().map(c -> ServiceCoverage.success(c, 1)).toList();
        return new TaskDone(1, "run", t.taskId(), 1, exec, "w-" + exec, chunks, assets, coverage, calls(calls), 0, 1);
    }

    List<String> ids() {
        try (Stream<Asset> s = spool.stream()) {
            return s.map(Asset::id).sorted().toList();
        }
    }

    @Test
    void twoExecutionsOfOneTaskInterleavedOnlyTheFirstDoneCounts() {
        agg.onResult(new TaskStarted(1, "run", part0.taskId(), 1, "e1", "w-e1", 0), 0);
        agg.onResult(new TaskStarted(1, "run", part0.taskId(), 1, "e2", "w-e2", 0), 0);
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e1", 0, List.of(asset("vpc-1"), asset("vpc-2"))), 0);
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e2", 0, List.of(asset("vpc-1"))), 0);
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e2", 1, List.of(asset("vpc-2"))), 0);
        agg.onResult(done(part0, "e2", 2, 2, 5), 0);
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e1", 1, List.of(asset("vpc-3"))), 0);
        agg.onResult(done(part0, "e1", 2, 3, 7), 0);

        assertThat(ids()).containsExactly("vpc-1", "vpc-2");
        assertThat(agg.duplicates()).isEqualTo(1);
        assertThat(agg.isDone(part0.taskId())).isTrue();
        assertThat(stats.totals().calls()).as("every execution's calls were made").isEqualTo(12);
        assertThat(tracker.runningByWorker()).isEmpty();
    }

    @Test
    void aRepeatedChunkIsIgnoredAndAGapMakesTheResultsUnusable() {
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e1", 0, List.of(asset("vpc-1"))), 0);
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e1", 0, List.of(asset("vpc-1"))), 0);
        agg.onResult(done(part0, "e1", 1, 1, 1), 0);
        assertThat(ids()).containsExactly("vpc-1");

        agg.onResult(new TaskStarted(1, "run", part1.taskId(), 1, "e3", "w-e3", 0), 0);
        agg.onResult(new AssetChunk(1, "run", part1.taskId(), "e3", 1, List.of(asset("fn-2"))), 0);
        agg.onResult(done(part1, "e3", 2, 2, 1), 0);
        assertThat(agg.isDone(part1.taskId())).isFalse();
        assertThat(tracker.due(0)).singleElement().isInstanceOfSatisfying(AttemptTracker.Retry.class,
                r -> assertThat(r.reason()).contains("incomplete results", "0 of 2", "out of order"));
        assertThat(ids()).containsExactly("vpc-1");
    }

    @Test
    void anAbandonedExecutionLeavesNoAssetsBehind() throws Exception {
        agg.onResult(new TaskStarted(1, "run", part0.taskId(), 1, "e1", "w1", 0), 0);
        agg.onResult(new AssetChunk(1, "run", part0.taskId(), "e1", 0, List.of(asset("vpc-1"))), 0);
        agg.onResult(new TaskAbandoned(1, "run", part0.taskId(), 1, "e1", "w1", "timeout", false, 5), 5);
        try (Stream<Path> files = Files.list(dir.resolve("staging"))) {
            assertThat(files).isEmpty();
        }
        assertThat(ids()).isEmpty();
        assertThat(tracker.due(5)).hasSize(1);
    }

    @Test
    void coverageIsOneRecordPerAccountRegionWithThePartsInOrder() {
        agg.onResult(done(part1, "e2", 0, 0, 0), 0);
        agg.giveUp(part0.taskId(), "dead-lettered by w9: protocol version 2 is not supported");
        assertThat(agg.complete()).isTrue();
        List<CoverageRecord> coverage = agg.coverage();
        assertThat(coverage).singleElement().satisfies(r -> {
            assertThat(r.region()).isEqualTo("us-east-1");
            assertThat(r.services()).extracting(ServiceCoverage::service).containsExactly("vpc", "subnets", "functions");
            assertThat(r.services().get(0).status()).isEqualTo(CoverageStatus.FAILED);
            assertThat(r.services().get(0).error()).startsWith("dead-lettered by w9");
            assertThat(r.services().get(2).status()).isEqualTo(CoverageStatus.SUCCESS);
        });
        assertThat(agg.failedTasks()).isEqualTo(1);
    }

    @Test
    void anAzureRecordGetsItsSummaryOverAllItsParts() {
        String rec = "azure/sub-1/global";
        PlannedTask a0 = new PlannedTask(rec + "#0", rec, 0,
                new WireTarget("azure", "sub-1", "global", List.of("azure_resources", "azure_compute"), Map.of()), false);
        PlannedTask a1 = new PlannedTask(rec + "#1", rec, 1,
                new WireTarget("azure", "sub-1", "global", List.of("azure_network"), Map.of()), false);
        ResultAggregator azure = new ResultAggregator(List.of(a0, a1), spool, staging, tracker, new FleetThrottling(stats));
        azure.onResult(done(a0, "e1", 0, 0, 0), 0);
        azure.onResult(new TaskDone(1, "run", a1.taskId(), 1, "e2", "w2", 0, 0,
                List.of(new ServiceCoverage("azure_network", CoverageStatus.PARTIAL, 0, "throttled: gave up")),
                WireThrottling.NONE, 0, 1), 0);
        List<ServiceCoverage> entries = azure.coverage().get(0).services();
        assertThat(entries).extracting(ServiceCoverage::service)
                .containsExactly("azure_resources", "azure_compute", "azure_network", "azure_full");
        assertThat(entries.get(3)).isEqualTo(io.cloudg.azure.AzureProvider.summary().summarize(entries.subList(0, 3)));
        assertThat(entries.get(3).status()).isEqualTo(CoverageStatus.PARTIAL);
    }

    @Test
    void resultsOfTasksNotInThePlanAreIgnored() {
        agg.onResult(new TaskStarted(1, "run", "aws/x/y#0", 1, "e9", "w9", 0), 0);
        assertThat(agg.ignored()).isEqualTo(1);
        assertThat(tracker.runningByWorker()).isEmpty();
    }
}
