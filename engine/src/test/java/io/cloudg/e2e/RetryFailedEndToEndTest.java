package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.testkit.MapSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --retry-failed} against cloud-sim: a first map that fault rules leave with FAILED entries, then a
 * retry (the faults gone) that re-collects only those and merges them with the first map's successes.
 */
class RetryFailedEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path out;

    @AfterEach
    void mapsMatchTheSchema() {
        MapSchema.assertEveryMapValid(out);
    }

    /** The entries that are not SUCCESS, with their status and reason: what a failed assertion shows. */
    private static String notSuccess(InventoryResult r) {
        return CoverageEntry.flatten(r.coverage()).stream().filter(e -> e.status() != CoverageStatus.SUCCESS)
                .map(e -> e.id() + " " + e.status() + ": " + e.error()).collect(Collectors.joining("\n"));
    }

    private static Set<String> failed(InventoryResult r) {
        return CoverageEntry.flatten(r.coverage()).stream().filter(e -> e.status() != CoverageStatus.SUCCESS)
                .map(CoverageEntry::id).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theRetryReRunsOnlyWhatFailedAndTheMergedMapEqualsTheTruth() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String member = h.sim.estate().aws().accounts().get(1).id();
            String project = h.sim.estate().gcp().projects().get(0).id();
            h.sim.setFaults(FaultSpec.fromYaml("faults: ["
                    + "{match: {provider: aws, account: \"" + member + "\", region: eu-west-1, operation: DescribeSubnets}, error: access_denied},"
                    + "{match: {provider: aws, account: \"" + member + "\", operation: ListUsers}, error: access_denied},"
                    + "{match: {provider: gcp, account: " + project + "}, error: access_denied}]"));
            CloudGConfig config = h.config(out).providers("aws", "gcp")
                    .gcp(g -> g.withEndpoint(h.sim.gcpTarget()).withOrganization(h.sim.estate().gcp().organization())).build();
            InventoryResult first = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            Set<String> failedFirst = failed(first);
            assertThat(failedFirst).as(notSuccess(first)).containsExactly(
                    "aws/" + member + "/eu-west-1/subnets", "aws/" + member + "/global/iam_users", "gcp/" + project + "/global/cloudasset");
            assertThat(first.complete()).isFalse();

            h.sim.setFaults(FaultSpec.NONE);
            long callsBefore = h.sim.stats().totals().requests();
            InventoryResult retry = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults()))
                    .retryFailed(out).mapInventory();
            long retryCalls = h.sim.stats().totals().requests() - callsBefore;

            assertThat(retry.complete()).as(failed(retry).toString()).isTrue();
            // the estate churns while it is mapped: every stable asset, and none that never existed
            h.assertEqualsTruth(SimHarness.mappedKeys(retry), a -> a.provider().equals("aws") || a.provider().equals("gcp"));
            assertThat(retry.summary().assets()).as("no duplicates").isEqualTo(SimHarness.mappedKeys(retry).size());
            assertThat(CoverageEntry.flatten(retry.coverage())).hasSameSizeAs(CoverageEntry.flatten(first.coverage()));
            JsonNode run = JSON.readTree(retry.mapFile().toFile()).get("run");
            assertThat(run.at("/retry/of_run").asText()).isEqualTo(first.runId());
            assertThat(Path.of(run.at("/retry/of_map").asText())).isEqualTo(first.runDir().resolve("inventory-map.json"));
            List<String> retried = JSON.convertValue(run.at("/retry/retried"), JSON.getTypeFactory()
                    .constructCollectionType(List.class, String.class));
            assertThat(retried).containsExactlyElementsOf(failedFirst);
            assertThat(run.at("/retry/kept").asLong())
                    .isEqualTo(CoverageEntry.flatten(first.coverage()).size() - failedFirst.size());
            assertThat(run.at("/retry/rediscovered")).isEmpty();
            assertThat(retryCalls).as("only the failed entries were called again").isLessThan(20);
            assertThat(retry.runDir().getParent()).isEqualTo(first.runDir().getParent());
        }
    }

    @Test
    void aFailedDiscoveryRediscoversThatProviderAndMapsWhatTheFirstMapMissed() throws Exception {
        try (SimHarness h = new SimHarness(EstateSpec.defaultEstate(), FaultSpec.fromYaml(
                "faults: [{match: {provider: aws, operation: ListAccounts}, error: access_denied}]"))) {
            CloudGConfig config = h.config(out).build();
            InventoryResult first = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            assertThat(failed(first)).anyMatch(id -> id.endsWith("/discovery/organizations"));
            assertThat(SimHarness.mappedKeys(first)).isNotEqualTo(h.truthKeys("aws"));

            h.sim.setFaults(FaultSpec.NONE);
            InventoryResult retry = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults()))
                    .retryFailed(first.mapFile()).mapInventory();

            assertThat(retry.complete()).as(failed(retry).toString()).isTrue();
            h.assertEqualsTruth(SimHarness.mappedKeys(retry), a -> a.provider().equals("aws"));
            JsonNode run = JSON.readTree(retry.mapFile().toFile()).get("run");
            assertThat(run.at("/retry/rediscovered/0").asText()).isEqualTo("aws");
        }
    }
}
