package io.cloudg.replan;

import io.cloudg.CloudGConfig;
import io.cloudg.aws.AwsClients;
import io.cloudg.aws.AwsProvider;
import io.cloudg.collect.CollectionTask;
import io.cloudg.resilience.Governor;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;
import java.util.Map;

/** AWS: {@link AwsProvider} for discovery and for re-planning, one client cache per process. */
final class AwsReplanner implements Replanner {
    private final AwsClients clients;
    private final AwsProvider provider;

    AwsReplanner(CloudGConfig config, Governor governor, int maxConnections) {
        this.clients = new AwsClients(config.aws(), governor, maxConnections);
        this.provider = new AwsProvider(config.aws(), clients);
    }

    @Override
    public String name() {
        return "aws";
    }

    @Override
    public ProviderPlan plan() {
        return provider.plan();
    }

    @Override
    public Map<String, String> discoveryFacts() {
        String m = provider.managementAccountId();
        return m == null ? Map.of() : Map.of(TaskTarget.MANAGEMENT_ACCOUNT, m);
    }

    @Override
    public String serviceOf(String job) {
        return AwsProvider.serviceOf(job);
    }

    @Override
    public boolean discoveryJob(String job) {
        return AwsProvider.discoveryJob(job);
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
