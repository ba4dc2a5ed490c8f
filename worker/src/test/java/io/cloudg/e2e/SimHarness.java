package io.cloudg.e2e;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Path;
import java.util.List;

/** Starts a cloud-sim on a random port and builds configurations that point at it. */
final class SimHarness implements AutoCloseable {
    final CloudSim sim;

    SimHarness(EstateSpec estate, FaultSpec faults) {
        SimOptions.Builder b = SimOptions.builder().port(0).estate(estate);
        if (faults != null) {
            b.faults(faults);
        }
        this.sim = CloudSim.start(b.build());
    }

    static SimHarness defaultEstate() {
        return new SimHarness(EstateSpec.defaultEstate(), null);
    }

    CloudGConfig.Builder config(Path out) {
        return CloudGConfig.builder().providers("aws").outputDir(out).workers(8)
                .aws(a -> a.withEndpoint(sim.awsEndpoint()).withOrg(true)
                        .withCredentials(sim.managementCredentials().accessKeyId(),
                                sim.managementCredentials().secretAccessKey()));
    }

    /** Maps Azure only, against the simulator's ARM and Resource Graph endpoint. */
    CloudGConfig.Builder azureConfig(Path out) {
        return CloudGConfig.builder().providers("azure").outputDir(out).workers(8)
                .azure(a -> a.withEndpoint(sim.azureEndpoint()).withTenant(sim.azureTenantId()));
    }

    /** Maps GCP only (the organization and its projects), against the simulator's plaintext gRPC port. */
    CloudGConfig.Builder gcpConfig(Path out) {
        return CloudGConfig.builder().providers("gcp").outputDir(out).workers(8)
                .gcp(g -> g.withEndpoint(sim.gcpTarget()).withOrganization(sim.estate().gcp().organization()));
    }

    /** The truth of one provider as {@code account|region|service|type|id} keys. */
    java.util.Set<String> truthKeys(String provider) {
        return sim.truth().assets().stream().filter(a -> a.provider().equals(provider))
                .map(a -> a.account() + "|" + a.region() + "|" + a.service() + "|" + a.type() + "|" + a.id())
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    /** A map's assets as {@code account|region|service|type|id} keys. */
    static java.util.Set<String> mappedKeys(io.cloudg.InventoryResult r) {
        try (java.util.stream.Stream<io.cloudg.inventory.Asset> assets = r.assets()) {
            return assets.map(a -> a.accountId() + "|" + a.region() + "|" + a.service() + "|" + a.type() + "|" + a.id())
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    static Governor governor(RateLimitConfig config) {
        return Governor.builder().config(config).build();
    }

    static List<String> regions() {
        return List.of("us-east-1", "eu-west-1");
    }

    @Override
    public void close() {
        sim.close();
    }
}
