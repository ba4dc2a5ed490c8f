package io.cloudg.fleet.plan;

import io.cloudg.CloudGConfig;
import io.cloudg.collect.CollectionTask;
import io.cloudg.gcp.GcpClients;
import io.cloudg.gcp.GcpProvider;
import io.cloudg.resilience.Governor;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;

/** GCP in the fleet: one Cloud Asset listing per project, and one for the organization's own assets. */
final class GcpFleetProvider implements FleetProvider {
    private final GcpClients clients;
    private final GcpProvider provider;

    GcpFleetProvider(CloudGConfig config, Governor governor, int threads) {
        this.clients = new GcpClients(config.gcp(), governor, threads);
        this.provider = new GcpProvider(config.gcp(), clients, governor);
    }

    @Override
    public String name() {
        return "gcp";
    }

    @Override
    public ProviderPlan plan() {
        return provider.plan();
    }

    @Override
    public CollectionTask taskFor(TaskTarget target) {
        return provider.taskFor(target);
    }

    @Override
    public void close() {
        clients.close();
    }
}
