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

/**
 * Starts a cloud-sim on a random port and builds configurations that point at it. Tests run against the
 * {@code strict} profile: the providers' documented quotas and windows, no retry hints AWS does
 * not send, short and empty pages, opaque tokens, and churn during the map, so a map is compared with the
 * truth by {@link #check} (every stable asset, nothing that never existed), not by equality. One setting
 * differs from the profile: ARM's Retry-After is 1 s instead of the 10 s observed on real throttles, because
 * the Azure SDK waits for it and these tests check what a map says, not how long it waited.
 */
final class SimHarness implements AutoCloseable {
    /** What every test estate starts with: the strict profile, ARM's Retry-After at 1 s (see the class comment). */
    static final String STRICT = "realism: strict\nquotas: {azure: {arm_retry_after: 1s}}\n";

    final CloudSim sim;

    SimHarness(EstateSpec estate, FaultSpec faults) {
        this(estate, faults, null);
    }

    /** @param clock the simulator's clock (a {@code ManualClock} stands its quota windows still), null: real */
    SimHarness(EstateSpec estate, FaultSpec faults, io.cloudg.sim.core.SimClock clock) {
        this(estate, faults, clock, 0);
    }

    /** @param port the simulator's port (0: any free one); a test that restarts "the same" simulator reuses it */
    SimHarness(EstateSpec estate, FaultSpec faults, io.cloudg.sim.core.SimClock clock, int port) {
        SimOptions.Builder b = SimOptions.builder().port(port).estate(estate);
        if (clock != null) {
            b.clock(clock);
        }
        if (faults != null) {
            b.faults(faults);
        }
        this.sim = CloudSim.start(b.build());
    }

    /** The small demo estate (3 AWS accounts in 2 regions, 2 subscriptions, 3 projects), strict. */
    static SimHarness defaultEstate() {
        return new SimHarness(strictEstate(), null);
    }

    /** The small demo estate, strict. */
    static EstateSpec strictEstate() {
        return EstateSpec.fromYaml(STRICT);
    }

    /** An estate file's sections (without {@code realism} or {@code quotas}), strict. */
    static EstateSpec strict(String yaml) {
        return EstateSpec.fromYaml(STRICT + yaml);
    }

    CloudGConfig.Builder config(Path out) {
        return CloudGConfig.builder().providers("aws").outputDir(out).jobConcurrency(8)
                .aws(a -> a.withEndpoint(sim.awsEndpoint()).withOrg(true)
                        .withCredentials(sim.managementCredentials().accessKeyId(),
                                sim.managementCredentials().secretAccessKey()));
    }

    /** Maps Azure only, against the simulator's ARM and Resource Graph endpoint. */
    CloudGConfig.Builder azureConfig(Path out) {
        return CloudGConfig.builder().providers("azure").outputDir(out).jobConcurrency(8)
                .azure(a -> a.withEndpoint(sim.azureEndpoint()).withTenant(sim.azureTenantId()));
    }

    /**
     * Maps GCP only (the organization and its projects), against the simulator's plaintext gRPC port, naming
     * the simulator's caller project as the consumer project (what credentials with a project give).
     */
    CloudGConfig.Builder gcpConfig(Path out) {
        return CloudGConfig.builder().providers("gcp").outputDir(out).jobConcurrency(8)
                .gcp(g -> g.withEndpoint(sim.gcpTarget()).withOrganization(sim.estate().gcp().organization())
                        .withConsumerProject(consumerProject()));
    }

    /** The project the simulator charges Cloud Asset calls that name none to: its callers' own project. */
    String consumerProject() {
        String c = sim.options().estate().gcp().consumerProject();
        return c != null ? c : sim.estate().gcp().projects().get(0).id();
    }

    /** The truth of one provider as {@code account|region|service|type|id} keys, churned assets included. */
    java.util.Set<String> truthKeys(String provider) {
        return sim.truth().assets().stream().filter(a -> a.provider().equals(provider)).map(SimHarness::key)
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    static String key(io.cloudg.sim.estate.Asset a) {
        return a.account() + "|" + a.region() + "|" + a.service() + "|" + a.type() + "|" + a.id();
    }

    /** A map's assets against the truth of the assets {@code scope} selects: stable ones missing, unknown ones held. */
    io.cloudg.sim.estate.Truth.Check check(java.util.Set<String> mapped, java.util.function.Predicate<io.cloudg.sim.estate.Asset> scope) {
        return sim.truth().check(mapped, scope, SimHarness::key);
    }

    /** Asserts that a map of {@code provider} holds every stable asset and nothing that never existed. */
    void assertEqualsTruth(io.cloudg.InventoryResult r, String provider) {
        assertEqualsTruth(mappedKeys(r), a -> a.provider().equals(provider));
    }

    void assertEqualsTruth(java.util.Set<String> mapped, java.util.function.Predicate<io.cloudg.sim.estate.Asset> scope) {
        io.cloudg.sim.estate.Truth.Check c = check(mapped, scope);
        org.assertj.core.api.Assertions.assertThat(c.missingStable()).as("stable assets missing").isEmpty();
        org.assertj.core.api.Assertions.assertThat(c.neverExisted()).as("assets that never existed").isEmpty();
        org.assertj.core.api.Assertions.assertThat(mapped).as("stable assets").isNotEmpty();
    }

    /** A map's assets as {@code account|region|service|type|id} keys. */
    static java.util.Set<String> mappedKeys(io.cloudg.InventoryResult r) {
        return mappedKeys(r, a -> true);
    }

    /** The keys of the map's assets that {@code which} selects. */
    static java.util.Set<String> mappedKeys(io.cloudg.InventoryResult r,
                                            java.util.function.Predicate<io.cloudg.inventory.Asset> which) {
        try (java.util.stream.Stream<io.cloudg.inventory.Asset> assets = r.assets()) {
            return assets.filter(which).map(a -> a.accountId() + "|" + a.region() + "|" + a.service() + "|" + a.type()
                    + "|" + a.id()).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    /**
     * Nothing went wrong with the provider's quotas: no throttle, error, give-up, rejection, breaker trip or
     * skipped scope, and the governor never degraded. Waiting on the governor's own default rates is not trouble:
     * a second of it in all (which makes the map's throttling block) comes on a slow machine with no throttle at all.
     */
    static void assertNoThrottlingTrouble(io.cloudg.InventoryResult r) {
        io.cloudg.resilience.report.ThrottlingReport t = r.throttling();
        if (t != null) {
            org.assertj.core.api.Assertions.assertThat(t.totals().troubled()).as(t.summary().toString()).isFalse();
            org.assertj.core.api.Assertions.assertThat(t.skipped()).as("scopes skipped").isEmpty();
            org.assertj.core.api.Assertions.assertThat(t.governor() == null || !t.governor().everDegraded())
                    .as("the governor degraded").isTrue();
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
