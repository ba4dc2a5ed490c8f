package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsCollector;
import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A per-item call that is denied never passes for an answer: for every collector of the catalog that makes
 * per-item calls (a region call, a derived security attribute, a configuration read, one parent's child
 * listing), the first such call is denied once (cloud-sim fault {@code access_denied, count: 1}); the entry must
 * be PARTIAL and name the call and the error, the item must still be in the map with {@code detail_errors}
 * saying what it lacks, and nothing it could not read may be filled in (a bucket whose location was denied is
 * in region {@code unknown}, not in a plausible one).
 */
class AwsPerItemFailureEndToEndTest {
    @TempDir
    Path out;

    static Stream<Arguments> perItemCalls() {
        return AwsCatalog.all().stream().filter(c -> c.operations().size() > 1)
                .map(c -> Arguments.of(c.name(), c.service(), c.operations().get(1)));
    }

    @ParameterizedTest(name = "{0}: {2} denied once")
    @MethodSource("perItemCalls")
    void aDeniedPerItemCallMakesTheEntryPartialWithTheReason(String collector, String service, String operation)
            throws Exception {
        AwsCollector c = AwsCatalog.named(collector);
        boolean childListing = c.listsPerParent();
        String denied = operation;
        FaultSpec faults = FaultSpec.fromYaml("faults: [{match: {provider: aws, service: " + service + ", operation: "
                + denied + "}, error: access_denied, count: 1}]");
        EstateSpec estate = EstateSpec.defaultEstate();
        AwsSpec one = estate.aws();
        estate = estate.withAws(new AwsSpec(1, null, null, List.of("us-east-1"), one.roleName(), one.counts(), one.security()));
        try (SimHarness h = new SimHarness(estate, faults)) {
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(List.of(collector), List.of())
                    .withSweeps(false, false).withDetail(AwsSettings.Detail.FULL)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            ServiceCoverage entry = r.coverage().stream().flatMap(rec -> rec.services().stream())
                    .filter(s -> s.service().equals(collector)).findFirst().orElseThrow();
            assertThat(entry.status()).as(entry.toString()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(entry.error()).contains("1 of ").contains(denied).contains("AccessDenied");
            if (childListing) {
                return; // the denied parent's children are not listed; the entry says so
            }
            List<Asset> hit;
            try (Stream<Asset> assets = r.assets()) {
                hit = assets.filter(a -> a.attributes().containsKey("detail_errors")).toList();
            }
            assertThat(hit).as("the item whose call was denied is mapped and says what it lacks").hasSize(1);
            assertThat(hit.get(0).attributes().get("detail_errors").toString()).contains(denied).contains("AccessDenied");
            if (collector.equals("s3_buckets") && denied.equals("GetBucketLocation")) {
                assertThat(hit.get(0).region()).isEqualTo(AwsCollector.UNKNOWN_REGION);
            }
        }
    }
}
