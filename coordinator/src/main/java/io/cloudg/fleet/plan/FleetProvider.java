package io.cloudg.fleet.plan;

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

    /** What the last {@link #plan()} learned that workers need to re-plan (never a secret). */
    Map<String, String> discoveryFacts();

    /** The service whose quotas a job uses: jobs of one service stay together when a task is split. */
    String serviceOf(String job);

    /** Whether a job is built from discovery's findings and so runs in the coordinator. */
    boolean discoveryJob(String job);

    /** A worker's side: the jobs of {@code target}, built with this process's clients and credentials. */
    CollectionTask taskFor(TaskTarget target);

    @Override
    void close();
}
