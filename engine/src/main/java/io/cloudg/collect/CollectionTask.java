package io.cloudg.collect;

import io.cloudg.inventory.ServiceCoverage;
import java.util.ArrayList;
import java.util.List;

/**
 * The unit of coverage: one account (subscription, project) x region of one provider, with the collectors
 * to run there. Its id ({@code aws/123456789012/us-east-1}) is what a fleet deduplicates results by.
 *
 * @param summary an entry derived from the jobs' entries once they have all ended (Azure's
 *        {@code azure_full}), or null for none
 */
public record CollectionTask(String provider, String accountId, String region, List<CollectorJob> jobs,
                             TaskSummary summary) {
    public CollectionTask {
        jobs = List.copyOf(jobs);
    }

    /** A task without a summary entry. */
    public CollectionTask(String provider, String accountId, String region, List<CollectorJob> jobs) {
        this(provider, accountId, region, jobs, null);
    }

    /** The task's coverage entries: the jobs' entries, then the summary's if it has one. */
    public List<ServiceCoverage> entries(List<ServiceCoverage> jobEntries) {
        if (summary == null) {
            return List.copyOf(jobEntries);
        }
        List<ServiceCoverage> all = new ArrayList<>(jobEntries);
        all.add(summary.summarize(List.copyOf(jobEntries)));
        return all;
    }

    public String id() {
        return provider + "/" + accountId + "/" + region;
    }
}
