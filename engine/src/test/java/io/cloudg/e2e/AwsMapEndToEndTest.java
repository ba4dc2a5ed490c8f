package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.config.RateLimitConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded mapper against cloud-sim's strict profile, with the real AWS SDK clients: every stable asset
 * and nothing that never existed, while resources come and go during the map.
 */
class AwsMapEndToEndTest {
    @TempDir
    Path out;

    /** Every map this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(out);
    }

    @Test
    void aFullAwsMapOfTheDefaultEstateEqualsTheTruthAssetForAsset() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            CloudGConfig config = h.config(out).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
            Set<String> mapped = SimHarness.mappedKeys(r);
            assertThat(h.sim.truth().stable()).hasSizeGreaterThan(400);
            h.assertEqualsTruth(mapped, a -> a.provider().equals("aws"));
            assertThat(r.summary().assets()).as("no duplicates").isEqualTo(mapped.size());
            assertThat(r.coverage()).allSatisfy(rec -> assertThat(rec.status()).as(rec.toString()).isEqualTo(CoverageStatus.SUCCESS));
            SimHarness.assertNoThrottlingTrouble(r);
        }
    }

    @Test
    void ec2MapOfTheDefaultEstateEqualsTheTruth() throws Exception {
        try (SimHarness h = SimHarness.defaultEstate()) {
            List<String> ec2 = List.of("instances", "vpc", "subnets", "security_groups", "network_interfaces", "volumes",
                    "snapshots", "amis", "internet_gateways", "nat_gateways", "route_tables", "key_pairs", "elastic_ips",
                    "launch_templates");
            CloudGConfig config = h.config(out).aws(a -> a.withCollectors(ec2, List.of()).withSweeps(false, false)).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            Set<String> ec2Types = Set.of("AWS::EC2::Instance", "AWS::EC2::VPC", "AWS::EC2::Subnet",
                    "AWS::EC2::SecurityGroup", "AWS::EC2::NetworkInterface", "AWS::EC2::Volume", "AWS::EC2::Snapshot",
                    "AWS::EC2::Image", "AWS::EC2::InternetGateway", "AWS::EC2::NatGateway", "AWS::EC2::RouteTable",
                    "AWS::EC2::KeyPair", "AWS::EC2::EIP", "AWS::EC2::LaunchTemplate");
            Set<String> mapped = SimHarness.mappedKeys(r);
            h.assertEqualsTruth(mapped, a -> ec2Types.contains(a.type()));
            assertThat(r.coverage()).allSatisfy(rec -> assertThat(rec.status()).as(rec.toString()).isEqualTo(CoverageStatus.SUCCESS));
            assertThat(r.coverage().stream().map(CoverageRecord::accountId).distinct().count()).isEqualTo(3);
            assertThat(r.summary().assets()).isEqualTo(mapped.size());
            assertThat(r.mapFile()).exists();
            ServiceCoverage amis = r.coverage().stream().filter(c -> c.region().equals("us-east-1"))
                    .flatMap(c -> c.services().stream()).filter(s -> s.service().equals("amis")).findFirst().orElseThrow();
            assertThat(amis.assetCount()).isPositive();
        }
    }
}
