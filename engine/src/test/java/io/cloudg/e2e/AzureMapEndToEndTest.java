package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.config.EstateSpec;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded mapper against cloud-sim's Azure, with the real Azure SDK clients (ARM and Resource Graph). */
class AzureMapEndToEndTest {
    @TempDir
    Path out;

    /** Every map this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(out);
    }

    @Test
    void armMapOfTheDefaultEstateEqualsTheTruth() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            CloudGConfig config = h.azureConfig(out).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            assertThat(h.sim.truth().select(a -> a.provider().equals("azure") && a.stable())).hasSizeGreaterThan(20);
            h.assertEqualsTruth(r, "azure");
            assertEverySubscriptionComplete(h, r);
            SimHarness.assertNoThrottlingTrouble(r);
        }
    }

    @Test
    void resourceGraphMapPagesWithSkipTokensAndEqualsTheTruth() throws Exception {
        // no churn: the entries' exact counts are what proves that every page was read (strict pages stay:
        // short and empty ones, opaque tokens)
        EstateSpec big = SimHarness.strict("""
                churn: {created: 0, deleted: 0}
                azure:
                  subscriptions: 1
                  locations: [eastus, westeurope]
                  resource_groups: 2
                  resources: {Microsoft.Compute/disks: 1001, Microsoft.Network/virtualNetworks: 2,
                              Microsoft.Storage/storageAccounts: 1, Microsoft.Cache/redis: 2}
                """);
        try (SimHarness h = new SimHarness(big, null)) {
            CloudGConfig config = h.azureConfig(out).azure(a -> a.withResourceGraph(true)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            h.assertEqualsTruth(r, "azure");
            assertEverySubscriptionComplete(h, r);
            CoverageRecord rec = r.coverage().get(r.coverage().size() - 1);
            assertThat(entry(rec, "azure_compute").assetCount()).as("two pages of a 1000-row query").isEqualTo(1001);
            assertThat(entry(rec, "azure_other").assetCount()).as("a type outside the catalog is found by the sweep")
                    .isEqualTo(2);
        }
    }

    @Test
    void armListingsFollowNextLinks() throws Exception {
        // no churn: the exact counts prove every nextLink was followed (strict pages stay)
        EstateSpec paged = SimHarness.strict("""
                churn: {created: 0, deleted: 0}
                azure: {subscriptions: 1, resource_groups: 3, page_size: 2,
                        resources: {Microsoft.Compute/disks: 5, Microsoft.Web/sites: 1}}
                """);
        try (SimHarness h = new SimHarness(paged, null)) {
            InventoryResult r = new InventoryMapper(h.azureConfig(out).build(),
                    SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            h.assertEqualsTruth(r, "azure");
            CoverageRecord rec = r.coverage().stream().filter(c -> !c.region().equals("discovery")).findFirst().orElseThrow();
            assertThat(entry(rec, "azure_compute").assetCount()).isEqualTo(5);
            assertThat(entry(rec, "azure_resources").assetCount()).isEqualTo(4);
            assertThat(entry(rec, "azure_full").assetCount()).isEqualTo(10);
        }
    }

    static void assertEverySubscriptionComplete(SimHarness h, InventoryResult r) {
        int subscriptions = h.sim.estate().azure().subscriptions().size();
        assertThat(r.coverage()).allSatisfy(rec -> assertThat(rec.status()).as(rec.toString()).isEqualTo(CoverageStatus.SUCCESS));
        assertThat(r.coverage().stream().filter(c -> c.region().equals("global"))).hasSize(subscriptions)
                .allSatisfy(rec -> {
                    ServiceCoverage full = entry(rec, "azure_full");
                    assertThat(full.assetCount()).isEqualTo(rec.services().stream()
                            .filter(s -> !s.service().equals("azure_full")).mapToLong(ServiceCoverage::assetCount).sum());
                    // churn: every stable asset, and at most every asset that ever existed
                    assertThat(full.assetCount()).isBetween(
                            (long) h.sim.truth().select(a -> a.account().equals(rec.accountId()) && a.stable()).size(),
                            (long) h.sim.truth().select(a -> a.account().equals(rec.accountId())).size());
                });
    }

    static ServiceCoverage entry(CoverageRecord rec, String service) {
        return rec.services().stream().filter(s -> s.service().equals(service)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + service + " in " + rec));
    }
}
