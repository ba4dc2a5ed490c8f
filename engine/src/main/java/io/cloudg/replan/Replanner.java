package io.cloudg.replan;

import io.cloudg.collect.CollectionTask;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;
import java.util.Map;

/**
 * One provider as a planner whose tasks can be re-planned elsewhere: discovery and planning (a fleet's
 * coordinator), and re-planning one task from its {@link TaskTarget} (a fleet worker, a retry of failed
 * entries). Closing it releases its clients.
 */
public interface Replanner extends AutoCloseable {
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
