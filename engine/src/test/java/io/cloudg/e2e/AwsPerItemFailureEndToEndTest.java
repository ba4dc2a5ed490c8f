package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsCollector;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A per-item call that is denied never passes for an answer. For every collector of the catalog that makes
 * per-item calls (a region call, a derived security attribute, a configuration read, one parent's child
 * listing), its first per-item call is denied once (a cloud-sim fault {@code access_denied, count: 1} on that
 * operation; one map runs them all, as the operations are distinct): each such entry must be PARTIAL naming
 * the call and the error, the item must still be in the map with {@code detail_errors} saying what it lacks,
 * and nothing it could not read may be filled in (the bucket whose location was denied has no {@code location}
 * attribute, and is placed in the region ListBuckets' {@code BucketRegion} names, not in a plausible one).
 * Collectors without per-item calls stay SUCCESS.
 */
class AwsPerItemFailureEndToEndTest {
    /** AWS's denial codes: AccessDenied, AccessDeniedException, EC2's UnauthorizedOperation. */
    static final String DENIED = "AccessDenied|UnauthorizedOperation";

    @TempDir
    Path out;

    @Test
    void aDeniedPerItemCallMakesItsEntryPartialWithTheReasonForEveryCollector() throws Exception {
        Map<AwsCollector, String> denied = new LinkedHashMap<>();
        for (AwsCollector c : AwsCatalog.all()) {
            if (c.operations().size() > 1) {
                denied.put(c, c.operations().get(1));
            }
        }
        assertThat(denied.entrySet().stream().map(e -> e.getKey().service() + "." + e.getValue()).distinct().count())
                .as("one fault rule per service x operation").isEqualTo(denied.size());
        String rules = denied.entrySet().stream().map(e -> "{match: {provider: aws, service: " + e.getKey().service()
                + ", operation: " + e.getValue() + "}, error: access_denied, count: 1}").collect(Collectors.joining(", "));
        EstateSpec estate = EstateSpec.defaultEstate();
        AwsSpec aws = estate.aws();
        estate = estate.withAws(new AwsSpec(1, null, null, List.of("us-east-1"), aws.roleName(), aws.counts(), aws.security()));
        try (SimHarness h = new SimHarness(estate, FaultSpec.fromYaml("faults: [" + rules + "]"))) {
            CloudGConfig config = h.config(out).aws(a -> a.withSweeps(false, false)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            Map<String, ServiceCoverage> entries = r.coverage().stream().flatMap(rec -> rec.services().stream())
                    .collect(Collectors.toMap(ServiceCoverage::service, s -> s, (a, b) -> a));
            List<Asset> assets;
            try (Stream<Asset> s = r.assets()) {
                assets = s.toList();
            }
            for (AwsCollector c : AwsCatalog.all()) {
                ServiceCoverage entry = entries.get(c.name());
                assertThat(entry).as("coverage entry of " + c.name()).isNotNull();
                String op = denied.get(c);
                if (op == null) {
                    assertThat(entry.status()).as(entry.toString()).isEqualTo(CoverageStatus.SUCCESS);
                    continue;
                }
                assertThat(entry.status()).as(entry.toString()).isEqualTo(CoverageStatus.PARTIAL);
                assertThat(entry.error()).as(c.name()).contains("1 of ").contains(op).containsPattern(DENIED);
                if (c.listsPerParent()) {
                    continue; // the denied parent's children are not listed; the entry says so
                }
                List<Asset> lacking = assets.stream().filter(a -> a.type().equals(c.type())
                        && a.attributes().containsKey("detail_errors")).toList();
                assertThat(lacking).as(c.name() + ": the item whose call was denied is mapped and says what it lacks")
                        .hasSize(1);
                assertThat(lacking.get(0).attributes().get("detail_errors").toString()).contains(op).containsPattern(DENIED);
            }
            Asset bucket = assets.stream().filter(a -> a.type().equals("AWS::S3::Bucket")
                    && String.valueOf(a.attributes().get("detail_errors")).contains("GetBucketLocation")).findFirst().orElseThrow();
            String real = h.sim.truth().select(a -> a.type().equals("AWS::S3::Bucket") && a.id().equals(bucket.id()))
                    .get(0).region();
            assertThat(bucket.region()).as("a bucket whose location was denied is where ListBuckets' BucketRegion says")
                    .isEqualTo(real);
            assertThat(bucket.attributes()).doesNotContainKey("location");
        }
    }

    /**
     * Every GetBucketLocation denied, buckets in three regions: each bucket is still mapped, in the region
     * ListBuckets' {@code BucketRegion} names (the truth's), and the denial is recorded on each bucket and in
     * the entry, PARTIAL, as for any denied per-item call.
     */
    @Test
    void aBucketWhoseLocationIsDeniedIsPlacedInItsRealRegionAndTheDenialIsRecorded() throws Exception {
        EstateSpec estate = EstateSpec.fromYaml("""
                aws:
                  accounts: 1
                  regions: [us-east-1, eu-west-1, ap-southeast-2]
                  resources: {AWS::S3::Bucket: 6}
                """);
        FaultSpec denied = FaultSpec.fromYaml("""
                faults: [{match: {provider: aws, service: s3, operation: GetBucketLocation}, error: access_denied}]
                """);
        try (SimHarness h = new SimHarness(estate, denied)) {
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(List.of("s3_buckets"), List.of())
                    .withSweeps(false, false)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            List<Asset> buckets;
            try (Stream<Asset> s = r.assets()) {
                buckets = s.filter(a -> a.type().equals("AWS::S3::Bucket")).toList();
            }
            Map<String, String> truth = h.sim.truth().select(a -> a.type().equals("AWS::S3::Bucket")).stream()
                    .collect(Collectors.toMap(io.cloudg.sim.estate.Asset::id, io.cloudg.sim.estate.Asset::region));
            assertThat(truth.values()).containsOnly("us-east-1", "eu-west-1", "ap-southeast-2").hasSize(6);
            assertThat(buckets.stream().collect(Collectors.toMap(Asset::id, Asset::region)))
                    .as("every bucket, in its real region").isEqualTo(truth);
            assertThat(buckets).allSatisfy(b -> {
                assertThat(b.attributes()).doesNotContainKey("location");
                assertThat(b.attributes().get("detail_errors").toString()).contains("GetBucketLocation")
                        .containsPattern(DENIED);
            });
            ServiceCoverage entry = r.coverage().stream().flatMap(c -> c.services().stream())
                    .filter(s -> s.service().equals("s3_buckets")).findFirst().orElseThrow();
            assertThat(entry.status()).isEqualTo(CoverageStatus.PARTIAL);
            assertThat(entry.assetCount()).isEqualTo(6);
            assertThat(entry.error()).contains("6 of ").contains("GetBucketLocation").containsPattern(DENIED);
        }
    }
}
