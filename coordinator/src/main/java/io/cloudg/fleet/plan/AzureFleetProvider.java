package io.cloudg.fleet.plan;

import io.cloudg.CloudGConfig;
import io.cloudg.azure.AzureClients;
import io.cloudg.azure.AzureProvider;
import io.cloudg.collect.CollectionTask;
import io.cloudg.resilience.Governor;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;

/**
 * Azure in the fleet: one task per subscription, cut between resource providers (each listing uses its
 * resource provider's quota, so each job is its own service); the record's
 * {@code azure_full} summary is added by the coordinator over the assembled parts
 * ({@link FleetProviders#summaryOf}).
 */
final class AzureFleetProvider implements FleetProvider {
    private final AzureProvider provider;

    AzureFleetProvider(CloudGConfig config, Governor governor) {
        this.provider = new AzureProvider(config.azure(), new AzureClients(config.azure(), governor));
    }

    @Override
    public String name() {
        return "azure";
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
        // the Azure SDK's HTTP client is shared by the process; nothing of this provider's to release
    }
}
