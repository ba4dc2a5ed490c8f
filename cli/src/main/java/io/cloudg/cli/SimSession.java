package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * A cloud-sim estate started inside this process for {@code --sim} ({@code cloudg map}, {@code cloudg mcp}):
 * every provider's endpoint and the sim's management credentials written over the configuration, so that
 * nothing else needs setting. Closing it stops the sim.
 */
final class SimSession implements AutoCloseable {
    /** The providers a {@code --sim} run maps when none is named. */
    static final List<String> PROVIDERS = List.of("aws", "azure", "gcp");

    private final CloudSim sim;

    private SimSession(CloudSim sim) {
        this.sim = sim;
    }

    /** Starts the demo estate, or {@code estate}, with {@code faults} when given. */
    static SimSession start(Path estate, Path faults) {
        SimOptions.Builder so = SimOptions.builder().port(0)
                .estate(estate != null ? EstateSpec.load(estate) : EstateSpec.defaultEstate());
        if (faults != null) {
            so.faults(FaultSpec.load(faults));
        }
        CloudSim sim = CloudSim.start(so.build());
        LoggerFactory.getLogger("cloudg.sim").info("cloud-sim started at {}", sim.awsEndpoint());
        return new SimSession(sim);
    }

    /** The configuration pointed at this sim; every provider the sim offers when none is configured. */
    CloudGConfig.Builder pointAt(CloudGConfig.Builder b) {
        b.aws(a -> a.withEndpoint(sim.awsEndpoint()).withOrg(true).withCredentials(
                sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey()));
        b.azure(a -> a.withEndpoint(sim.azureEndpoint()).withTenant(sim.azureTenantId()));
        b.gcp(g -> g.withEndpoint(sim.gcpTarget()).withOrganization(sim.estate().gcp().organization()));
        if (b.build().providers().isEmpty()) {
            b.providers(PROVIDERS.toArray(String[]::new));
        }
        return b;
    }

    @Override
    public void close() {
        sim.close();
    }
}
