package io.cloudg.fleet.plan;

import io.cloudg.collect.CollectionTask;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.SkippedAccount;
import java.util.List;
import java.util.Map;

/**
 * A run's plan: the discovery coverage, every task in plan order (the order coverage records are written
 * in), and, for the tasks the coordinator runs itself, their jobs (closures over what discovery found:
 * they exist only in the process that discovered), and the accounts discovery left out.
 */
public record FleetPlan(List<String> providers, List<CoverageRecord> discovery, List<PlannedTask> tasks,
                        Map<String, CollectionTask> localJobs, List<SkippedAccount> skipped) {
    public FleetPlan {
        skipped = List.copyOf(skipped);
        providers = List.copyOf(providers);
        discovery = List.copyOf(discovery);
        tasks = List.copyOf(tasks);
        localJobs = Map.copyOf(localJobs);
    }

    public List<PlannedTask> remoteTasks() {
        return tasks.stream().filter(t -> !t.local()).toList();
    }
}
