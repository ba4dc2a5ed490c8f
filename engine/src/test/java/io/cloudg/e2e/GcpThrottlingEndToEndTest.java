package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cloud Asset pushing back (RESOURCE_EXHAUSTED, reason RATE_LIMIT_EXCEEDED) or refusing, server-side in cloud-sim. */
class GcpThrottlingEndToEndTest {
    @TempDir
    Path out;

    /** Every map this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(out);
    }

    /**
     * Short backoffs, and ListAssets' leaf raised from its built-in 1.5 rps (halved by each throttle and
     * drained, it would make the test wait seconds for tokens): what is checked is the accounting.
     */
    static RateLimitConfig gcp(java.util.function.Consumer<io.cloudg.resilience.config.ProviderLimits.Builder> edit) {
        return RateLimitConfig.builder().gcp(g -> edit.accept(g.maxBackoffSeconds(0.05)
                .service("cloudasset.ListAssets", 20, 40))).build();
    }

    static FaultSpec throttleListAssets(String project) {
        return FaultSpec.fromYaml("faults: [{match: {provider: gcp, account: " + project
                + ", operation: ListAssets}, error: throttle}]");
    }

    static ServiceCoverage listingOf(InventoryResult r, String account) {
        CoverageRecord rec = r.coverage().stream().filter(c -> c.accountId().equals(account) && c.region().equals("global"))
                .findFirst().orElseThrow();
        return GcpMapEndToEndTest.listing(rec);
    }

    @Test
    void aListingCutShortByTheQuotaKeepsItsPagesAndSaysTruncated() throws Exception {
        // full pages and no churn: "the two pages the quota allowed" are exactly ten assets
        EstateSpec spec = EstateSpec.fromYaml("""
                realism: strict
                listings: {short_pages: 0, empty_pages: 0}
                churn: {created: 0, deleted: 0}
                gcp: {projects: 1, resources: {compute.googleapis.com/Instance: 9, storage.googleapis.com/Bucket: 9}}
                quotas: {gcp: {ListAssets: {project_per_minute: 2}}}
                """);
        try (SimHarness h = new SimHarness(spec, null, new io.cloudg.sim.core.ManualClock())) { // no minute ends
            String project = h.sim.estate().gcp().projects().get(0).id();
            CloudGConfig config = h.gcpConfig(out).gcp(g -> g.withOrganization(null).withProjects(List.of(project))
                    .withPageSize(5)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(gcp(g -> g.maxRetries(0)))).mapInventory();

            ServiceCoverage s = listingOf(r, project);
            assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(s.assetCount()).as("the two pages the quota allowed").isEqualTo(10);
            assertThat(s.error()).startsWith("listing truncated: throttled: 1 call(s) gave up after retries (throttled: "
                    + "ListAssets (retries exhausted): RESOURCE_EXHAUSTED: RATE_LIMIT_EXCEEDED: Quota exceeded for quota metric");
            Set<String> mapped = SimHarness.mappedKeys(r);
            assertThat(mapped).hasSize(10);
            assertThat(h.truthKeys("gcp")).containsAll(mapped);
            assertThat(r.throttling().slowedBuckets()).containsKey("gcp/" + h.consumerProject() + "/cloudasset/ListAssets");
            assertThat(r.complete()).isFalse();
        }
    }

    @Test
    void aPageIsRetriedAtMostMaxRetriesTimesThenTheListingIsTruncated() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String project = h.sim.estate().gcp().projects().get(0).id();
            h.sim.setFaults(throttleListAssets(project));
            Governor g = SimHarness.governor(gcp(l -> l.maxRetries(2)));
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(), g).mapInventory();

            ServiceCoverage s = listingOf(r, project);
            assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(s.assetCount()).isZero();
            assertThat(s.error()).startsWith("listing truncated: throttled: 1 call(s) gave up after retries (throttled: "
                    + "ListAssets (retries exhausted): RESOURCE_EXHAUSTED: RATE_LIMIT_EXCEEDED");
            assertThat(h.sim.stats().totals().throttled()).as("one attempt and two retries").isEqualTo(3);
            assertThat(r.throttling().totals().retries()).isEqualTo(2);
            assertThat(r.throttling().totals().gaveUp()).isEqualTo(1);
            assertThat(r.throttling().skipped()).as("every listing is paced and counted on the consumer project's leaf")
                    .containsOnlyKeys("gcp/" + h.consumerProject() + "/cloudasset");
            List<ServiceCoverage> others = r.coverage().stream().filter(c -> c.region().equals("global")
                    && !c.accountId().equals(project)).map(GcpMapEndToEndTest::listing).toList();
            assertThat(others).hasSize(3).allSatisfy(o -> assertThat(o.status()).isEqualTo(CoverageStatus.SUCCESS));
            h.assertEqualsTruth(SimHarness.mappedKeys(r), a -> a.provider().equals("gcp") && !a.account().equals(project));
        }
    }

    @Test
    void anEmptyRetryBudgetEndsGaxsRetryLoop() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String project = h.sim.estate().gcp().projects().get(1).id();
            h.sim.setFaults(throttleListAssets(project));
            Governor g = SimHarness.governor(gcp(l -> l.maxRetries(6).retryBudget(0)));
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(), g).mapInventory();

            ServiceCoverage s = listingOf(r, project);
            assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(s.error()).startsWith("listing truncated: throttled: 1 call(s) gave up after retries (throttled: "
                    + "ListAssets (retry budget exhausted): RESOURCE_EXHAUSTED");
            assertThat(h.sim.stats().totals().throttled()).as("the first two retries of a call are free").isEqualTo(3);
        }
    }

    @Test
    void withTheGovernorOffGaxKeepsItsDefaultsWhichDoNotRetryResourceExhausted() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String project = h.sim.estate().gcp().projects().get(2).id();
            h.sim.setFaults(throttleListAssets(project));
            Governor g = SimHarness.governor(RateLimitConfig.builder().enabled(false).gcp(l -> l.maxRetries(3)).build());
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(), g).mapInventory();

            ServiceCoverage s = listingOf(r, project);
            assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(s.error()).startsWith("listing truncated: throttled: RESOURCE_EXHAUSTED: RATE_LIMIT_EXCEEDED");
            assertThat(h.sim.stats().totals().throttled()).isEqualTo(1);
            assertThat(r.throttling().totals().retries()).isZero();
        }
    }

    @Test
    void permissionDeniedFailsTheListingWithoutRetries() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String project = h.sim.estate().gcp().projects().get(0).id();
            h.sim.setFaults(FaultSpec.fromYaml("faults: [{match: {provider: gcp, account: " + project
                    + "}, error: access_denied}]"));
            Governor g = SimHarness.governor(gcp(l -> l.maxRetries(2)));
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(), g).mapInventory();

            ServiceCoverage s = listingOf(r, project);
            assertThat(s.status()).isEqualTo(CoverageStatus.FAILED);
            assertThat(s.error()).startsWith("PERMISSION_DENIED: IAM_PERMISSION_DENIED: The caller does not have permission");
            assertThat(g.report().totals().retries()).isZero();
            assertThat(g.report().totals().breakerTrips()).isZero();
        }
    }

    @Test
    void throttledDiscoveryIsRecordedAndTheMapGoesOn() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String org = "organizations/" + h.sim.estate().gcp().organization();
            h.sim.setFaults(FaultSpec.fromYaml("faults: [{match: {provider: gcp, account: \"" + org
                    + "\", operation: SearchAllResources}, error: throttle}]"));
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(),
                    SimHarness.governor(gcp(l -> l.maxRetries(1).service("cloudasset.SearchAllResources", 20, 40))))
                    .mapInventory();
            CoverageRecord discovery = r.coverage().stream().filter(c -> c.region().equals("discovery")).findFirst()
                    .orElseThrow();
            assertThat(discovery.services()).singleElement().satisfies(s -> {
                assertThat(s.service()).isEqualTo("projects");
                assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
                assertThat(s.error()).startsWith("listing truncated: throttled: 1 call(s) gave up after retries (throttled: "
                        + "SearchAllResources (retries exhausted): RESOURCE_EXHAUSTED");
            });
            assertThat(listingOf(r, org).status()).as("the organization's own listing still ran")
                    .isEqualTo(CoverageStatus.SUCCESS);
        }
    }

    /**
     * As for Azure's subscription listing: an organization whose project listing is refused (no
     * cloudasset.assets.searchAllResources on it) is a FAILED discovery entry with Cloud Asset's reason, and
     * the rest is mapped: the projects configured by id, the organization's own listing, the other providers.
     * The run ends incomplete (exit 3), never with "could not start".
     */
    @Test
    void aRefusedProjectListingFailsGcpDiscoveryWithTheReasonAndTheRestIsMapped() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String org = "organizations/" + h.sim.estate().gcp().organization();
            String configured = h.sim.estate().gcp().projects().get(1).id();
            h.sim.setFaults(FaultSpec.fromYaml("faults: [{match: {provider: gcp, account: \"" + org
                    + "\", operation: SearchAllResources}, error: access_denied}]"));
            CloudGConfig config = h.config(out).providers("aws", "azure", "gcp")
                    .aws(a -> a.withCollectors(List.of("vpc"), List.of()).withSweeps(false, false))
                    .azure(a -> a.withEndpoint(h.sim.azureEndpoint()).withTenant(h.sim.azureTenantId()))
                    .gcp(g -> g.withEndpoint(h.sim.gcpTarget()).withOrganization(h.sim.estate().gcp().organization())
                            .withProjects(List.of(configured)).withConsumerProject(h.consumerProject()))
                    .build();
            Governor governor = SimHarness.governor(gcp(l -> l.maxRetries(2)));
            InventoryResult r = new InventoryMapper(config, governor).mapInventory();

            assertThat(r.complete()).isFalse();
            CoverageRecord discovery = r.coverage().stream()
                    .filter(c -> c.provider().equals("gcp") && c.region().equals("discovery")).findFirst().orElseThrow();
            assertThat(discovery.accountId()).isEqualTo(org);
            assertThat(discovery.services()).singleElement().satisfies(s -> {
                assertThat(s.service()).isEqualTo("projects");
                assertThat(s.status()).isEqualTo(CoverageStatus.FAILED);
                assertThat(s.error()).startsWith("PERMISSION_DENIED: IAM_PERMISSION_DENIED: The caller does not have "
                        + "permission to access " + org);
            });
            assertThat(governor.report().totals().retries()).as("a refusal is not retried").isZero();
            assertThat(r.coverage().stream().filter(c -> c.provider().equals("gcp") && c.region().equals("global"))
                    .map(CoverageRecord::accountId)).as("the organization's own listing and the configured project")
                    .containsExactlyInAnyOrder(org, configured);
            assertThat(listingOf(r, org).status()).isEqualTo(CoverageStatus.SUCCESS);
            assertThat(listingOf(r, configured).status()).isEqualTo(CoverageStatus.SUCCESS);
            h.assertEqualsTruth(SimHarness.mappedKeys(r, a -> a.provider().equals("gcp") && a.accountId().equals(configured)),
                    a -> a.provider().equals("gcp") && a.account().equals(configured));
            h.assertEqualsTruth(SimHarness.mappedKeys(r, a -> a.provider().equals("azure")), a -> a.provider().equals("azure"));
            assertThat(r.coverage().stream().filter(c -> !c.provider().equals("gcp") && !c.region().equals("discovery"))
                    .flatMap(c -> c.services().stream())).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.status()).isEqualTo(CoverageStatus.SUCCESS));
            assertThat(java.nio.file.Files.readString(r.mapFile())).contains("IAM_PERMISSION_DENIED");
        }
    }
}
