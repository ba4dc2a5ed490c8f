package io.cloudg.fleet.provider;

import io.cloudg.collect.CollectionTask;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;
import java.util.Map;

/**
 * One provider as the fleet sees it: discovery and planning on the coordinator, re-planning a task from
 * its {@link TaskTarget} on a worker. Closing it releases its clients.
 */
public interface FleetProvider extends AutoCloseable {
    String name();

    /** Discovers the estate (governed) and plans its tasks, as the embedded mode does. */
    ProviderPlan plan();

    /**
     * What the last {@link #plan()} learned that workers need to re-plan (never a secret). None by default:
     * a task's target alone re-plans it.
     */
    default Map<String, String> discoveryFacts() {
        return Map.of();
    }

    /**
     * The service whose quotas a job uses: jobs of one service stay together when a task is split. By
     * default each job is a service of its own ({@code azure_<service>}, a Cloud Asset listing).
     */
    default String serviceOf(String job) {
        return job;
    }

    /** Whether a job is built from discovery's findings and so runs in the coordinator. None by default. */
    default boolean discoveryJob(String job) {
        return false;
    }

    /** A worker's side: the jobs of {@code target}, built with this process's clients and credentials. */
    CollectionTask taskFor(TaskTarget target);

    @Override
    void close();
}
