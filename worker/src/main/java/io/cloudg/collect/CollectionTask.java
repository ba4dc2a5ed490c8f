package io.cloudg.collect;

import java.util.List;

/**
 * The unit of coverage: one account (subscription, project) x region of one provider, with the collectors
 * to run there. Its id ({@code aws/123456789012/us-east-1}) is what a fleet deduplicates results by.
 */
public record CollectionTask(String provider, String accountId, String region, List<CollectorJob> jobs) {
    public CollectionTask {
        jobs = List.copyOf(jobs);
    }

    public String id() {
        return provider + "/" + accountId + "/" + region;
    }
}
