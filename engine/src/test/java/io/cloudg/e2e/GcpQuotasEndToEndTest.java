package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.quota.BucketStats;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cloud Asset's real quotas (strict): every call charged to the consumer project it names and to the
 * organization, per-minute windows, RESOURCE_EXHAUSTED with an ErrorInfo naming the quota and no RetryInfo.
 * The simulator's clock stands still where a test counts what one window allows, so no window ends mid-test.
 */
class GcpQuotasEndToEndTest {
    @TempDir
    Path out;

    static SimHarness standingStill(EstateSpec spec) {
        return new SimHarness(spec, null, new ManualClock());
    }

    static Set<String> keys(List<LeafView> leaves) {
        return leaves.stream().map(l -> l.leaf().toString()).collect(Collectors.toSet());
    }

    @Test
    void everyListingIsChargedToTheConsumerProjectItNamesAndPacedOnOneLeaf() throws Exception {
        try (SimHarness h = new SimHarness(SimHarness.strict("gcp: {projects: 5}\n"), null)) {
            String org = h.sim.estate().gcp().organization();
            Governor g = SimHarness.governor(RateLimitConfig.defaults());
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).gcp(c -> c.withConsumerProject("my-tools-project"))
                    .build(), g).mapInventory();

            h.assertEqualsTruth(r, "gcp");
            List<BucketStats> charged = h.sim.stats().buckets().stream().filter(b -> b.key().startsWith("gcp/")
                    && b.calls() > 0).toList();
            assertThat(charged).extracting(BucketStats::key).as("the consumer the calls named, and the organization")
                    .containsExactlyInAnyOrder("gcp/projects/my-tools-project/cloudasset/ListAssets",
                            "gcp/projects/my-tools-project/cloudasset/SearchAllResources",
                            "gcp/organizations/" + org + "/cloudasset/ListAssets",
                            "gcp/organizations/" + org + "/cloudasset/SearchAllResources");
            assertThat(keys(g.store().snapshot().leaves())).as("one leaf per method and quota, whatever project is listed")
                    .containsExactlyInAnyOrder("gcp/my-tools-project/cloudasset/ListAssets",
                            "gcp/my-tools-project/cloudasset/SearchAllResources",
                            "gcp/organizations-" + org + "/cloudasset/ListAssetsPerOrganization",
                            "gcp/organizations-" + org + "/cloudasset/SearchAllResourcesPerOrganization");
        }
    }

    @Test
    void withoutAConsumerProjectCallsNameNoneAndShareTheCredentialsProjectsLeaf() throws Exception {
        try (SimHarness h = new SimHarness(SimHarness.strict("gcp: {projects: 4}\n"), null)) {
            Governor g = SimHarness.governor(RateLimitConfig.defaults());
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).gcp(c -> c.withConsumerProject(null)).build(), g)
                    .mapInventory();

            h.assertEqualsTruth(r, "gcp");
            assertThat(h.sim.stats().buckets().stream().filter(b -> b.key().startsWith("gcp/projects/") && b.calls() > 0)
                    .map(BucketStats::key)).as("the simulator charges its callers' own project")
                    .containsExactlyInAnyOrder("gcp/projects/" + h.consumerProject() + "/cloudasset/ListAssets",
                            "gcp/projects/" + h.consumerProject() + "/cloudasset/SearchAllResources");
            assertThat(keys(g.store().snapshot().leaves())).contains("gcp/credentials-project/cloudasset/ListAssets")
                    .noneMatch(k -> k.startsWith("gcp/" + h.consumerProject() + "/"));
        }
    }

    @Test
    void aQuotaErrorTeachesTheConsumersLeafTheWindowsRate() throws Exception {
        EstateSpec spec = EstateSpec.fromYaml("""
                realism: strict
                listings: {short_pages: 0, empty_pages: 0}
                churn: {created: 0, deleted: 0}
                gcp: {projects: 1, resources: {compute.googleapis.com/Instance: 20, storage.googleapis.com/Bucket: 20}}
                quotas: {gcp: {ListAssets: {project_per_minute: 6}}}
                """);
        try (SimHarness h = standingStill(spec)) {
            String project = h.sim.estate().gcp().projects().get(0).id();
            Governor g = SimHarness.governor(RateLimitConfig.builder().gcp(l -> l.maxRetries(0)
                    .service("cloudasset.ListAssets", 20, 40)).build());
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).gcp(c -> c.withOrganization(null)
                    .withProjects(List.of(project)).withPageSize(5)).build(), g).mapInventory();

            assertThat(GcpThrottlingEndToEndTest.listingOf(r, project).assetCount()).as("six pages of five").isEqualTo(30);
            assertThat(h.sim.stats().totals().throttled()).isEqualTo(1);
            LeafView leaf = g.store().snapshot().leaves().stream()
                    .filter(l -> l.leaf().toString().equals("gcp/" + h.consumerProject() + "/cloudasset/ListAssets"))
                    .findFirst().orElseThrow();
            assertThat(leaf.rateRps()).as("quota_limit_value 6 per quota_unit 1/min, spread over the minute")
                    .isEqualTo(QuotaWindow.sized(6, TimeUnit.MINUTES.toNanos(1)).spreadRps());
        }
    }

    @Test
    void theOrganizationsQuotaSlowsTheOrganizationsLeafNotTheConsumers() throws Exception {
        EstateSpec spec = EstateSpec.fromYaml("""
                realism: strict
                gcp: {projects: 5}
                quotas: {gcp: {ListAssets: {project_per_minute: 100, organization_per_minute: 3}}}
                """);
        try (SimHarness h = standingStill(spec)) {
            String org = h.sim.estate().gcp().organization();
            // min_rps 5: the organization's leaf falls to it rather than to 3 a minute, so the test does not wait
            Governor g = SimHarness.governor(RateLimitConfig.builder().gcp(l -> l.maxRetries(0).minRps(5.0)).build());
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(), g).mapInventory();

            assertThat(h.sim.stats().bucket("gcp/organizations/" + org + "/cloudasset/ListAssets").throttled()).isPositive();
            assertThat(r.coverage().stream().flatMap(c -> c.services().stream())
                    .filter(s -> s.status() != CoverageStatus.SUCCESS)).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.error()).contains("ListAssetsRequestsPerMinutePerOrganization"));
            assertThat(r.throttling().slowedBuckets()).as("the refusing quota's leaf, and only that")
                    .containsOnlyKeys("gcp/organizations-" + org + "/cloudasset/ListAssetsPerOrganization");
            assertThat(r.throttling().slowedBuckets().get("gcp/organizations-" + org + "/cloudasset/ListAssetsPerOrganization")
                    .rateRps()).as("3 a minute is below min_rps").isEqualTo(5.0);
        }
    }
}
