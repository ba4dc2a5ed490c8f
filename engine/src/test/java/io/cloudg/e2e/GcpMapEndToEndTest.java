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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded mapper against cloud-sim's Cloud Asset, with the real google-cloud-asset client over gRPC. */
class GcpMapEndToEndTest {
    @TempDir
    Path out;

    /** Every map this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(out);
    }

    static ServiceCoverage listing(CoverageRecord rec) {
        assertThat(rec.services()).hasSize(1);
        return rec.services().get(0);
    }

    static Map<String, CoverageRecord> byAccount(InventoryResult r) {
        return r.coverage().stream().filter(c -> c.region().equals("global"))
                .collect(Collectors.toMap(CoverageRecord::accountId, c -> c));
    }

    @Test
    void organizationMapOfTheDefaultEstateEqualsTheTruth() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(),
                    SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            assertThat(h.sim.truth().select(a -> a.provider().equals("gcp") && a.stable())).hasSizeGreaterThan(50);
            h.assertEqualsTruth(r, "gcp");
            assertThat(r.coverage()).allSatisfy(rec -> assertThat(rec.status()).as(rec.toString()).isEqualTo(CoverageStatus.SUCCESS));
            String org = "organizations/" + h.sim.estate().gcp().organization();
            CoverageRecord discovery = r.coverage().stream().filter(c -> c.region().equals("discovery")).findFirst().orElseThrow();
            assertThat(discovery.accountId()).isEqualTo(org);
            assertThat(discovery.services()).containsExactly(ServiceCoverage.success("projects", 3));
            Map<String, CoverageRecord> tasks = byAccount(r);
            assertThat(tasks.keySet()).containsExactlyInAnyOrderElementsOf(h.sim.truth().assets().stream()
                    .filter(a -> a.provider().equals("gcp")).map(a -> a.account()).collect(Collectors.toSet()));
            assertThat(listing(tasks.get(org))).isEqualTo(ServiceCoverage.success("cloudasset", 1));
            SimHarness.assertNoThrottlingTrouble(r);
        }
    }

    @Test
    void configuredProjectsAreListedPageByPage() throws Exception {
        // full pages and no churn: the test counts requests per page size (strict's short and empty pages
        // and its churn would change the count, not the paging)
        try (SimHarness h = new SimHarness(SimHarness.strict("listings: {short_pages: 0, empty_pages: 0}\n"
                + "churn: {created: 0, deleted: 0}\n"), null)) {
            List<String> two = h.sim.estate().gcp().projects().subList(0, 2).stream().map(p -> p.id()).toList();
            CloudGConfig config = h.gcpConfig(out).gcp(g -> g.withOrganization(null).withProjects(two).withPageSize(5))
                    .build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            Set<String> truth = h.truthKeys("gcp").stream().filter(k -> two.contains(k.substring(0, k.indexOf('|'))))
                    .collect(Collectors.toSet());
            assertThat(SimHarness.mappedKeys(r)).isEqualTo(truth);
            assertThat(r.coverage()).hasSize(2).allSatisfy(rec -> assertThat(listing(rec)).isEqualTo(
                    ServiceCoverage.success("cloudasset", 19)));
            // 19 assets at 5 a page: 4 pages per listing, each one request to the provider
            assertThat(r.summary().throttling()).isNull();
            assertThat(h.sim.stats().totals().calls()).isEqualTo(8);
        }
    }

    @Test
    void assetsCarryTheirLocationAndApi() throws Exception {
        EstateSpec spec = SimHarness.strict("""
                gcp: {projects: 1, locations: [asia-east1], resources: {compute.googleapis.com/Instance: 1,
                      sqladmin.googleapis.com/Instance: 1, storage.googleapis.com/Bucket: 1}}
                """);
        try (SimHarness h = new SimHarness(spec, null)) {
            InventoryResult r = new InventoryMapper(h.gcpConfig(out).build(),
                    SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            h.assertEqualsTruth(r, "gcp");
            assertThat(SimHarness.mappedKeys(r)).anySatisfy(k -> assertThat(k).contains("|asia-east1-a|compute|compute.googleapis.com/Instance|//compute.googleapis.com/projects/"))
                    .anySatisfy(k -> assertThat(k).contains("|asia-east1|sqladmin|sqladmin.googleapis.com/Instance|//cloudsql.googleapis.com/"));
        }
    }
}
