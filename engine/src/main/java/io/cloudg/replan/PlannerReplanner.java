package io.cloudg.replan;

import io.cloudg.CloudGConfig;
import io.cloudg.azure.AzureClients;
import io.cloudg.azure.AzureProvider;
import io.cloudg.collect.CollectionTask;
import io.cloudg.gcp.GcpClients;
import io.cloudg.gcp.GcpProvider;
import io.cloudg.resilience.Governor;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A provider whose re-planning is its embedded planner as it is: discovery plans, a task's target alone
 * re-plans it, each job is a service of its own (the interface's defaults).
 *
 * @param resources what closing releases (the provider's clients)
 */
record PlannerReplanner(String name, Supplier<ProviderPlan> planner, Function<TaskTarget, CollectionTask> replanner,
                            AutoCloseable resources) implements Replanner {

    /**
     * Azure: one task per subscription, cut between resource providers (each listing uses its resource
     * provider's quota); the record's {@code azure_full} summary is added by the coordinator over the
     * assembled parts ({@link Replanners#summaryOf}). The SDK's HTTP client is the process's: nothing to close.
     */
    static PlannerReplanner azure(CloudGConfig config, Governor governor) {
        AzureProvider p = new AzureProvider(config.azure(), new AzureClients(config.azure(), governor));
        return new PlannerReplanner("azure", p::plan, p::taskFor, () -> { });
    }

    /** GCP: one Cloud Asset listing per project, and one for the organization's own assets. */
    static PlannerReplanner gcp(CloudGConfig config, Governor governor, int threads) {
        GcpClients clients = new GcpClients(config.gcp(), governor, threads);
        GcpProvider p = new GcpProvider(config.gcp(), clients, governor);
        return new PlannerReplanner("gcp", p::plan, p::taskFor, clients::close);
    }

    @Override
    public ProviderPlan plan() {
        return planner.get();
    }

    @Override
    public CollectionTask taskFor(TaskTarget target) {
        return replanner.apply(target);
    }

    @Override
    public void close() {
        try {
            resources.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing the " + name + " provider failed", e);
        }
    }
}
