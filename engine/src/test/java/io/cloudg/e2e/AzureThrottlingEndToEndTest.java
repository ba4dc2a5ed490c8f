package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.report.SlowedBucket;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Azure throttled server-side by cloud-sim (strict): every resource listing of one subscription answers 429
 * (Retry-After: 1, {@link SimHarness#STRICT}). The other subscription and the resource groups are never
 * throttled.
 */
class AzureThrottlingEndToEndTest {
    /** Every listing of one subscription lists resources, and every one of them is throttled. */
    static final int LISTINGS = 12;

    @TempDir
    Path out;

    /** Every map this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(out);
    }

    static FaultSpec throttleListings(String subscription) {
        return FaultSpec.fromYaml("faults: [{match: {provider: azure, account: " + subscription
                + ", operation: ListResources}, error: throttle}]");
    }

    /**
     * One retry, short backoffs, and storage's leaf raised from its built-in 0.33 rps (halved by the first
     * throttle, it would make the test wait seconds for a token): what is checked is the accounting.
     */
    static RateLimitConfig quickRetries() {
        return RateLimitConfig.builder().azure(a -> a.maxRetries(1).maxBackoffSeconds(0.05).service("storage", 20, 40))
                .build();
    }

    static Map<String, CoverageRecord> bySubscription(InventoryResult r) {
        return r.coverage().stream().filter(c -> c.region().equals("global"))
                .collect(Collectors.toMap(CoverageRecord::accountId, c -> c));
    }

    @Test
    void aThrottledSubscriptionFailsItsListingsAndItsFullEntryIsPartial() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String throttled = h.sim.estate().azure().subscriptions().get(0).id();
            String fine = h.sim.estate().azure().subscriptions().get(1).id();
            h.sim.setFaults(throttleListings(throttled));
            Governor g = SimHarness.governor(quickRetries());
            InventoryResult r = new InventoryMapper(h.azureConfig(out).build(), g).mapInventory();

            CoverageRecord bad = bySubscription(r).get(throttled);
            List<ServiceCoverage> listings = bad.services().stream()
                    .filter(s -> !Set.of("azure_resources", "azure_full").contains(s.service())).toList();
            assertThat(listings).hasSize(LISTINGS).allSatisfy(s -> {
                assertThat(s.status()).as(s.service()).isEqualTo(CoverageStatus.FAILED);
                assertThat(s.assetCount()).isZero();
                assertThat(s.error()).startsWith("throttled: 1 call(s) gave up after retries (throttled: ListResources "
                        + "(retries exhausted): SubscriptionRequestsThrottled");
            });
            ServiceCoverage groups = AzureMapEndToEndTest.entry(bad, "azure_resources");
            assertThat(groups.status()).isEqualTo(CoverageStatus.SUCCESS);
            assertThat(groups.assetCount()).as("the subscription and its resource groups, every one")
                    .isEqualTo(h.sim.truth().select(a -> a.account().equals(throttled) && a.type().startsWith("Microsoft.Resources/")).size());
            ServiceCoverage full = AzureMapEndToEndTest.entry(bad, "azure_full");
            assertThat(full.status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(full.error()).startsWith("throttled: " + LISTINGS + " of " + (LISTINGS + 1) + " listing(s) incomplete: azure_compute FAILED (throttled:");
            assertThat(full.assetCount()).isEqualTo(groups.assetCount());

            CoverageRecord good = bySubscription(r).get(fine);
            assertThat(good.services()).allSatisfy(s -> assertThat(s.status()).as(s.service()).isEqualTo(CoverageStatus.SUCCESS));
            Set<String> mapped = SimHarness.mappedKeys(r);
            h.assertEqualsTruth(mapped.stream().filter(k -> k.startsWith(fine + "|")).collect(Collectors.toSet()),
                    a -> a.provider().equals("azure") && a.account().equals(fine));

            ThrottlingReport t = r.throttling();
            assertThat(t).isNotNull();
            assertThat(t.totals().throttled()).as("two attempts per listing").isEqualTo(2L * LISTINGS);
            assertThat(t.totals().gaveUp()).isEqualTo(LISTINGS);
            assertThat(t.skipped()).containsKey("azure/" + throttled + "/compute");
            assertThat(t.skipped().keySet()).noneMatch(k -> k.contains(fine));
            assertThat(t.slowedBuckets()).containsKey("azure/" + throttled + "/network");
            assertThat(t.totals().breakerTrips()).isZero();
            assertThat(h.sim.stats().totals().throttled()).isEqualTo(2L * LISTINGS);
            assertThat(r.complete()).isFalse();
        }
    }

    @Test
    void resourceGraphsWindowPausesTheLeafUntilTheResetAndItsRateBecomesTheWindowsQuotaSpreadOverIt() throws Exception {
        // 2 subscriptions, 13 queries each (one per service and one for the rest), against 15 queries per 5-second
        // window; cloudg's leaf raised to 20/s so that the first window runs out
        EstateSpec spec = SimHarness.strict("""
                churn: {created: 0, deleted: 0}
                azure: {subscriptions: 2, resource_groups: 1, resources: {Microsoft.Compute/disks: 1}}
                """);
        try (SimHarness h = new SimHarness(spec, null)) {
            Governor g = SimHarness.governor(RateLimitConfig.builder().azure(a -> a.service("resourcegraph", 20, 20))
                    .build());
            InventoryResult r = new InventoryMapper(h.azureConfig(out).azure(a -> a.withResourceGraph(true)).build(), g)
                    .mapInventory();

            h.assertEqualsTruth(r, "azure");
            assertThat(r.coverage()).allSatisfy(rec -> assertThat(rec.status()).as(rec.toString())
                    .isEqualTo(CoverageStatus.SUCCESS));
            ThrottlingReport t = r.throttling();
            assertThat(t.totals().throttled()).as("the first window's last queries").isPositive();
            Map.Entry<String, SlowedBucket> graph = t.slowedBuckets().entrySet().stream()
                    .filter(e -> e.getKey().endsWith("/resourcegraph")).findFirst().orElseThrow();
            assertThat(graph.getValue().rateRps()).as("15 queries per 5 s, learned from the answers' quota headers")
                    .isCloseTo(QuotaWindow.sized(15, TimeUnit.SECONDS.toNanos(5)).spreadRps(), within(0.001));
            long throttled = h.sim.stats().buckets().stream().filter(b -> b.key().contains("resourcegraph")
                    || b.key().contains("graph")).mapToLong(io.cloudg.sim.quota.BucketStats::throttled).sum();
            assertThat(throttled).as("refused only while the first window was spent: the queries sent before it "
                    + "ran out, never again after the reset").isEqualTo(t.totals().throttled())
                    .isLessThanOrEqualTo(8);
        }
    }

    @Test
    void withTheGovernorOffTheSdksOwnRetryPolicyRetries() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String throttled = h.sim.estate().azure().subscriptions().get(0).id();
            h.sim.setFaults(throttleListings(throttled));
            Governor g = SimHarness.governor(RateLimitConfig.builder().enabled(false)
                    .azure(a -> a.maxRetries(1).maxBackoffSeconds(0.05)).build());
            InventoryResult r = new InventoryMapper(h.azureConfig(out).jobConcurrency(LISTINGS).build(), g).mapInventory();

            CoverageRecord bad = bySubscription(r).get(throttled);
            assertThat(bad.services().stream().filter(s -> s.status() == CoverageStatus.FAILED)).hasSize(LISTINGS)
                    .allSatisfy(s -> assertThat(s.error()).startsWith("throttled: SubscriptionRequestsThrottled"));
            assertThat(AzureMapEndToEndTest.entry(bad, "azure_full").status()).isEqualTo(CoverageStatus.PARTIAL);
            // azure-core's default policy: 3 retries, whatever ratelimit.azure.max_retries says; nothing gives up
            // in cloudg's books because cloudg does not retry
            assertThat(h.sim.stats().totals().throttled()).isEqualTo(4L * LISTINGS);
            assertThat(r.throttling().totals().gaveUp()).isZero();
            assertThat(r.throttling().totals().retries()).isZero();
        }
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsRetriedAndThenGivesUpAsTransient() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String closing = h.sim.estate().azure().subscriptions().get(0).id();
            h.sim.setFaults(FaultSpec.fromYaml("faults: [{match: {provider: azure, account: " + closing
                    + ", operation: ListResources}, error: close}]"));
            Governor g = SimHarness.governor(quickRetries());
            InventoryResult r = new InventoryMapper(h.azureConfig(out).jobConcurrency(LISTINGS).build(), g).mapInventory();

            CoverageRecord bad = bySubscription(r).get(closing);
            assertThat(bad.services().stream().filter(s -> s.status() == CoverageStatus.FAILED)).hasSize(LISTINGS)
                    .allSatisfy(s -> assertThat(s.error()).startsWith("transient: ").contains("(retries exhausted)")
                            .contains("PrematureCloseException"));
            assertThat(r.throttling().totals().transientErrors()).as("each listing's attempt and its one retry")
                    .isEqualTo(2L * LISTINGS);
            assertThat(r.throttling().totals().gaveUp()).isEqualTo(LISTINGS);
        }
    }

    @Test
    void aRefusedSubscriptionListingFailsAzureWithTheReasonAndTheOtherProvidersAreMapped() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            h.sim.setFaults(FaultSpec.fromYaml(
                    "faults: [{match: {provider: azure, operation: ListSubscriptions}, error: access_denied}]"));
            io.cloudg.CloudGConfig config = h.config(out).providers("aws", "azure", "gcp")
                    .aws(a -> a.withCollectors(List.of("vpc"), List.of()).withSweeps(false, false))
                    .azure(a -> a.withEndpoint(h.sim.azureEndpoint()).withTenant(h.sim.azureTenantId()))
                    .gcp(gc -> gc.withEndpoint(h.sim.gcpTarget()).withOrganization(h.sim.estate().gcp().organization())
                            .withConsumerProject(h.consumerProject()))
                    .build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(quickRetries())).mapInventory();

            assertThat(r.complete()).isFalse();
            CoverageRecord azure = r.coverage().stream().filter(c -> c.provider().equals("azure")).findFirst().orElseThrow();
            assertThat(azure.region()).isEqualTo("discovery");
            assertThat(r.coverage().stream().filter(c -> c.provider().equals("azure"))).as("no subscription was mapped")
                    .hasSize(1);
            ServiceCoverage subscriptions = AzureMapEndToEndTest.entry(azure, "subscriptions");
            assertThat(subscriptions.status()).isEqualTo(CoverageStatus.FAILED);
            assertThat(subscriptions.error()).startsWith("AuthorizationFailed: The client")
                    .contains("Microsoft.Resources/subscriptions/read");
            assertThat(r.coverage().stream().filter(c -> c.provider().equals("aws") && !c.region().equals("discovery"))
                    .flatMap(c -> c.services().stream())).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.status()).isEqualTo(CoverageStatus.SUCCESS));
            java.util.Set<String> gcp;
            try (java.util.stream.Stream<io.cloudg.inventory.Asset> assets = r.assets()) {
                gcp = assets.filter(a -> a.provider().equals("gcp"))
                        .map(a -> a.accountId() + "|" + a.region() + "|" + a.service() + "|" + a.type() + "|" + a.id())
                        .collect(Collectors.toSet());
            }
            h.assertEqualsTruth(gcp, a -> a.provider().equals("gcp"));
            assertThat(Files.readString(r.mapFile())).contains("AuthorizationFailed");
        }
    }

    @Test
    void accessDeniedFailsEachListingWithoutTrippingABreaker() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            String denied = h.sim.estate().azure().subscriptions().get(1).id();
            h.sim.setFaults(FaultSpec.fromYaml("faults: [{match: {provider: azure, account: " + denied
                    + "}, error: access_denied}]"));
            Governor g = SimHarness.governor(quickRetries());
            InventoryResult r = new InventoryMapper(h.azureConfig(out).build(), g).mapInventory();

            CoverageRecord rec = bySubscription(r).get(denied);
            assertThat(rec.services().stream().filter(s -> !s.service().equals("azure_full"))).hasSize(LISTINGS + 1)
                    .allSatisfy(s -> {
                        assertThat(s.status()).isEqualTo(CoverageStatus.FAILED);
                        assertThat(s.error()).startsWith("AuthorizationFailed: The client");
                    });
            assertThat(AzureMapEndToEndTest.entry(rec, "azure_full").status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(AzureMapEndToEndTest.entry(rec, "azure_full").error()).doesNotStartWith("throttled:");
            assertThat(g.report().totals().breakerTrips()).isZero();
            assertThat(g.report().totals().retries()).isZero();
            assertThat(r.throttling()).isNull();
        }
    }
}
