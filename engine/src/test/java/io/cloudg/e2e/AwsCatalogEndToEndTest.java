package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsCollector;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.config.RateLimitConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole collector catalog against cloud-sim with the real SDK clients: every collector runs in every
 * account x region, every one ends SUCCESS, and the map equals the simulator's truth asset for asset. A catalog
 * entry the simulator cannot serve (an operation it does not know, a type it does not generate) fails here:
 * its coverage entry is FAILED, or the truth has no asset of its type.
 */
class AwsCatalogEndToEndTest {
    @TempDir
    Path out;

    @Test
    void everyCollectorRunsInEveryAccountAndRegionAndTheMapEqualsTheTruth() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            CloudGConfig config = h.config(out).aws(a -> a.withSweeps(false, false)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            List<String> failed = r.coverage().stream().flatMap(c -> c.services().stream()
                    .filter(s -> s.status() != CoverageStatus.SUCCESS)
                    .map(s -> c.accountId() + "/" + c.region() + " " + s.service() + " " + s.status() + ": " + s.error()))
                    .distinct().limit(40).toList();
            assertThat(failed).as("coverage entries that are not SUCCESS").isEmpty();

            // the estate churns while it is mapped: every stable asset, none that never existed, no duplicate
            Set<String> mapped = SimHarness.mappedKeys(r);
            io.cloudg.sim.estate.Truth.Check check = h.check(mapped, a -> a.provider().equals("aws"));
            assertThat(check.missingStable()).as("stable assets in the truth, not in the map").isEmpty();
            assertThat(check.neverExisted()).as("in the map, never in the estate").isEmpty();
            assertThat(r.summary().assets()).as("no duplicates").isEqualTo(mapped.size());

            // every account x region record lists every regional collector; with the global ones every collector
            int regional = (int) AwsCatalog.all().stream().filter(c -> !c.global() && !c.managementOnly()).count();
            assertThat(regional).isGreaterThanOrEqualTo(133);
            for (CoverageRecord rec : r.coverage()) {
                if (!rec.provider().equals("aws") || rec.region().equals("global") || rec.region().equals("discovery")) {
                    continue;
                }
                Set<String> names = rec.services().stream().map(ServiceCoverage::service).collect(Collectors.toSet());
                assertThat(names.size()).as(rec.accountId() + "/" + rec.region()).isGreaterThanOrEqualTo(133);
            }
            // every collector's type has assets in the truth (the estate generates it) and in the map
            Set<String> truthTypes = h.sim.truth().assets().stream().filter(a -> a.provider().equals("aws"))
                    .map(io.cloudg.sim.estate.Asset::type).collect(Collectors.toSet());
            for (AwsCollector c : AwsCatalog.all()) {
                assertThat(truthTypes).as("the truth holds " + c.type() + " (collector " + c.name() + ")").contains(c.type());
            }
        }
    }

    /**
     * An estate that has only a few types (what {@code EstateSpec.generated} makes for benchmarks and for
     * users trying a large organization): the collectors of the types it lacks find nothing, and the map is
     * complete. Account-level singletons the estate lacks (ECR's registry scanning configuration, Security
     * Hub) are "none", not failures.
     */
    @Test
    void anEstateOfAFewTypesIsMappedCompleteByTheWholeCatalog() throws Exception {
        io.cloudg.sim.config.EstateSpec estate = io.cloudg.sim.config.EstateSpec.generated(2, List.of("us-east-1"),
                java.util.Map.of(io.cloudg.sim.core.AwsType.EC2_VPC, 2, io.cloudg.sim.core.AwsType.EC2_IMAGE, 3));
        try (SimHarness h = new SimHarness(estate, null)) {
            CloudGConfig config = h.config(out).aws(a -> a.withRegions(List.of("us-east-1")).withSweeps(false, false))
                    .build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            List<String> notSuccess = r.coverage().stream().flatMap(c -> c.services().stream()
                    .filter(s -> s.status() != CoverageStatus.SUCCESS)
                    .map(s -> c.accountId() + "/" + c.region() + " " + s.service() + " " + s.status() + ": " + s.error()))
                    .toList();
            assertThat(notSuccess).isEmpty();
            assertThat(r.complete()).isTrue();
            h.assertEqualsTruth(SimHarness.mappedKeys(r), a -> a.provider().equals("aws"));
        }
    }
}
