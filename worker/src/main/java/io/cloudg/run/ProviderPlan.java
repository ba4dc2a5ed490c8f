package io.cloudg.run;

import io.cloudg.collect.CollectionTask;
import io.cloudg.inventory.CoverageRecord;
import java.util.List;

/**
 * What a provider's discovery produced: the tasks to run, and coverage records of the discovery itself
 * (an organization listing that gave up is recorded, not hidden).
 */
public record ProviderPlan(String provider, List<CollectionTask> tasks, List<CoverageRecord> discovery) {
    public ProviderPlan {
        tasks = List.copyOf(tasks);
        discovery = List.copyOf(discovery);
    }
}
