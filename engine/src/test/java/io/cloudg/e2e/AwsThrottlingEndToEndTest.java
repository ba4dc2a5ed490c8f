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
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a map says when the provider pushes back or refuses, against cloud-sim's server-side faults. */
class AwsThrottlingEndToEndTest {
    static final List<String> EC2_NET = List.of("vpc", "subnets");

    @TempDir
    Path out;

    /** Every map this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(out);
    }

    static Map<String, ServiceCoverage> entries(InventoryResult r, String region, String service) {
        return r.coverage().stream().filter(c -> c.region().equals(region))
                .collect(Collectors.toMap(CoverageRecord::accountId,
                        c -> c.services().stream().filter(s -> s.service().equals(service)).findFirst().orElseThrow()));
    }

    /** Fast retries so a test does not wait minutes: what is checked is the accounting, not the pacing. */
    static RateLimitConfig quickRetries() {
        return RateLimitConfig.builder().aws(a -> a.maxBackoffSeconds(0.02)).build();
    }

    @Test
    void describeSubnetsAlwaysThrottledIsPartialAndSaysWhy() throws Exception {
        FaultSpec faults = FaultSpec.fromYaml(
                "faults: [{match: {provider: aws, service: ec2, operation: DescribeSubnets}, error: throttle}]");
        try (SimHarness h = new SimHarness(SimHarness.strictEstate(), faults)) {
            Governor g = SimHarness.governor(quickRetries());
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(EC2_NET, List.of()).withSweeps(false, false)
                    .withMaxRetries(2).withRegions(List.of("us-east-1"))).build();
            InventoryResult r = new InventoryMapper(config, g).mapInventory();

            Map<String, ServiceCoverage> subnets = entries(r, "us-east-1", "subnets");
            Map<String, ServiceCoverage> vpcs = entries(r, "us-east-1", "vpc");
            assertThat(subnets).hasSize(3);
            for (ServiceCoverage s : subnets.values()) {
                assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
                assertThat(s.assetCount()).isZero();
                assertThat(s.error()).startsWith("throttled: 1 call(s) gave up after retries (throttled: DescribeSubnets "
                        + "(retries exhausted): RequestLimitExceeded");
            }
            assertThat(vpcs.values()).allSatisfy(v -> {
                assertThat(v.status()).isEqualTo(CoverageStatus.SUCCESS);
                assertThat(v.assetCount()).isPositive();
            });
            ThrottlingReport t = r.throttling();
            assertThat(t).isNotNull();
            String account = subnets.keySet().iterator().next();
            String scope = "aws/" + account + "/us-east-1/ec2";
            assertThat(t.skipped()).containsKey(scope);
            assertThat(t.skipped().get(scope)).startsWith("throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded");
            assertThat(t.slowedBuckets()).containsKey(scope + "/DescribeSubnets");
            assertThat(t.slowedBuckets()).doesNotContainKey(scope + "/DescribeVpcs");
            assertThat(t.slowedBuckets().get(scope + "/DescribeSubnets").throttles()).isEqualTo(3);
            assertThat(t.totals().throttled()).isEqualTo(9);
            assertThat(t.totals().gaveUp()).isEqualTo(3);
            assertThat(t.messages()).anySatisfy(m -> assertThat(m).startsWith(scope + ": throttled 3x, slowed to"));
            assertThat(r.summary().throttling()).containsEntry("gave_up", 3L);
            String json = Files.readString(r.mapFile());
            assertThat(json).contains("\"throttling\": {", "\"slowed_buckets\"", "\"status\":\"PARTIAL\"");
        }
    }

    /**
     * The real clock, each reading a second later than the one before: any call that asks for its time twice
     * (once when it opens, once before a retry) has outlived a one-second deadline, however fast the sim answers.
     */
    static final class LeapingClock implements TimeSource {
        private final java.util.concurrent.atomic.AtomicLong leaps = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public long nanoTime() {
            return System.nanoTime() + leaps.incrementAndGet() * 1_000_000_000L;
        }

        @Override
        public long epochMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            TimeSource.system().sleep(nanos);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> delay(long nanos) {
            return TimeSource.system().delay(nanos);
        }
    }

    @Test
    void deadlineSecondsBoundsCloudgsOwnLoopNeverTheSdksRetries() throws Exception {
        FaultSpec faults = FaultSpec.fromYaml(
                "faults: [{match: {provider: aws, service: ec2, operation: DescribeSubnets}, error: throttle}]");
        try (SimHarness h = new SimHarness(SimHarness.strictEstate(), faults)) {
            Governor g = Governor.builder().time(new LeapingClock())
                    .config(RateLimitConfig.builder().aws(a -> a.maxBackoffSeconds(0.02).deadlineSeconds(1.0)).build())
                    .build();
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(EC2_NET, List.of()).withSweeps(false, false)
                    .withMaxRetries(2).withRegions(List.of("us-east-1"))).build();
            InventoryResult r = new InventoryMapper(config, g).mapInventory();

            Map<String, ServiceCoverage> subnets = entries(r, "us-east-1", "subnets");
            assertThat(subnets).hasSize(3);
            assertThat(subnets.values()).allSatisfy(s -> {
                assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
                assertThat(s.error()).startsWith("throttled: 1 call(s) gave up after retries (throttled: DescribeSubnets "
                        + "(retries exhausted): RequestLimitExceeded");
            });
            ThrottlingReport t = r.throttling();
            assertThat(t.totals().throttled()).as("the SDK's three attempts a call, past the one-second deadline")
                    .isEqualTo(9);
            assertThat(t.totals().gaveUp()).isEqualTo(3);
        }
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsRetriedLikeAResetAndGivesUpAsTransient() throws Exception {
        FaultSpec faults = FaultSpec.fromYaml("""
                faults:
                  - {match: {provider: aws, service: ec2, operation: DescribeSubnets}, error: close, count: 3}
                  - {match: {provider: aws, service: ec2, operation: DescribeVpcs}, error: close}
                """);
        try (SimHarness h = new SimHarness(SimHarness.strictEstate(), faults)) {
            Governor g = SimHarness.governor(quickRetries());
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(EC2_NET, List.of()).withSweeps(false, false)
                    .withMaxRetries(3).withRegions(List.of("us-east-1"))).build();
            InventoryResult r = new InventoryMapper(config, g).mapInventory();

            assertThat(entries(r, "us-east-1", "subnets").values()).as("three closes, each call has four attempts")
                    .allSatisfy(s -> {
                        assertThat(s.status()).isEqualTo(CoverageStatus.SUCCESS);
                        assertThat(s.assetCount()).isPositive();
                    });
            assertThat(entries(r, "us-east-1", "vpc").values()).hasSize(3).allSatisfy(v -> {
                assertThat(v.status()).isIn(CoverageStatus.PARTIAL, CoverageStatus.FAILED);
                assertThat(v.error()).contains("transient: DescribeVpcs (retries exhausted): NoHttpResponseException: ")
                        .contains("failed to respond");
            });
            ThrottlingReport t = r.throttling();
            assertThat(t.totals().transientErrors()).as("3 closed subnet calls, 4 attempts at each account's vpcs")
                    .isEqualTo(3 + 3 * 4);
            assertThat(t.totals().gaveUp()).isEqualTo(3);
        }
    }

    @Test
    void accessDeniedFailsThatServiceWithoutTrippingABreaker() throws Exception {
        FaultSpec faults = FaultSpec.fromYaml("faults: [{match: {provider: aws, service: lambda}, error: access_denied}]");
        try (SimHarness h = new SimHarness(SimHarness.strictEstate(), faults)) {
            Governor g = SimHarness.governor(quickRetries());
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(List.of("lambda_functions", "vpc"), List.of())
                    .withSweeps(false, false)).build();
            InventoryResult r = new InventoryMapper(config, g).mapInventory();
            List<ServiceCoverage> lambdas = r.coverage().stream().flatMap(c -> c.services().stream())
                    .filter(s -> s.service().equals("lambda_functions")).toList();
            assertThat(lambdas).hasSize(6);
            assertThat(lambdas).allSatisfy(s -> {
                assertThat(s.status()).isEqualTo(CoverageStatus.FAILED);
                assertThat(s.error()).startsWith("AccessDenied");
            });
            assertThat(r.coverage().stream().flatMap(c -> c.services().stream()).filter(s -> s.service().equals("vpc")))
                    .allSatisfy(s -> assertThat(s.status()).isEqualTo(CoverageStatus.SUCCESS));
            assertThat(g.report().totals().breakerTrips()).isZero();
            assertThat(g.report().breakers()).isEmpty();
            assertThat(r.complete()).isFalse();
        }
    }

    @Test
    void aThrottledAmiFanOutKeepsEveryAmiAndSaysWhichAttributesWereLost() throws Exception {
        FaultSpec faults = FaultSpec.fromYaml("faults: [{match: {provider: aws, service: ec2, operation: DescribeImageAttribute},"
                + " error: throttle}]");
        try (SimHarness h = new SimHarness(SimHarness.strictEstate(), faults)) {
            Governor g = SimHarness.governor(quickRetries());
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(List.of("amis"), List.of()).withSweeps(false, false)
                    .withMaxRetries(1).withRegions(List.of("us-east-1"))).build();
            InventoryResult r = new InventoryMapper(config, g).mapInventory();
            Map<String, ServiceCoverage> amis = entries(r, "us-east-1", "amis");
            assertThat(amis.values()).allSatisfy(s -> {
                assertThat(s.status()).isEqualTo(CoverageStatus.PARTIAL);
                assertThat(s.assetCount()).as("every AMI is still listed").isEqualTo(3);
                assertThat(s.error()).startsWith("throttled: 3 call(s) gave up after retries (throttled: DescribeImageAttribute");
            });
        }
    }
}
