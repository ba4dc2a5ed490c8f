package io.cloudg.run;

import io.cloudg.collect.CollectionTask;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.SkippedAccount;
import java.util.List;

/**
 * What a provider's discovery produced: the tasks to run, coverage records of the discovery itself
 * (an organization listing that gave up is recorded, not hidden), and the accounts it found but leaves
 * out (suspended, excluded by the configuration), for the summary.
 */
public record ProviderPlan(String provider, List<CollectionTask> tasks, List<CoverageRecord> discovery,
                           List<SkippedAccount> skipped) {
    public ProviderPlan {
        tasks = List.copyOf(tasks);
        discovery = List.copyOf(discovery);
        skipped = List.copyOf(skipped);
    }

    /** A plan that skips no account. */
    public ProviderPlan(String provider, List<CollectionTask> tasks, List<CoverageRecord> discovery) {
        this(provider, tasks, discovery, List.of());
    }
}
