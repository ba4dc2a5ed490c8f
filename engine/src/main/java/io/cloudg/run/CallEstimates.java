package io.cloudg.run;

import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.JobCost;

/**
 * The calls each collector job is expected to make: its {@link CallShape} at the item count the previous
 * map found in the same account x region ({@link PriorRun}), or at none when that map is absent or did not
 * run the collector there (a listing's one call). Embedded maps order jobs by it, fleets order, place and
 * cut tasks by it, and progress counts the calls left with it.
 */
public final class CallEstimates implements JobCost {
    public static final CallEstimates NONE = new CallEstimates(PriorRun.NONE);

    private final PriorRun prior;
    private final CallShapes shapes;

    /** At the providers' default settings ({@link CallShapes#DEFAULTS}). */
    public CallEstimates(PriorRun prior) {
        this(prior, CallShapes.DEFAULTS);
    }

    /** With the shapes of the run's configuration ({@code CloudGConfig.callShapes()}). */
    public CallEstimates(PriorRun prior, CallShapes shapes) {
        this.prior = prior;
        this.shapes = shapes;
    }

    public PriorRun prior() {
        return prior;
    }

    /** The shape of {@code collector} of {@code provider} in this run. */
    public CallShape shape(String provider, String collector) {
        return shapes.shape(provider, collector);
    }

    /** The calls of {@code collector} in {@code accountId} x {@code region}. */
    public long expected(String provider, String accountId, String region, String collector) {
        long n = prior.assets(provider + "/" + accountId + "/" + region, collector);
        return shape(provider, collector).calls(Math.max(0, n));
    }

    /** Whether the previous map said how many items the collector found there. */
    public boolean known(String provider, String accountId, String region, String collector) {
        return prior.assets(provider + "/" + accountId + "/" + region, collector) >= 0;
    }

    /**
     * What orders jobs and tasks: the expected calls when the previous map sized the job; otherwise a listing
     * that makes per-item calls ranks above a plain one (it may fan out: a first map starts its AMI listings
     * before its VPC listings, so that a large one is not left for the end).
     */
    public long rank(String provider, String accountId, String region, String collector) {
        if (known(provider, accountId, region, collector)) {
            return expected(provider, accountId, region, collector);
        }
        CallShape s = shape(provider, collector);
        return s.calls(0) + s.perItemCalls();
    }

    @Override
    public long calls(CollectionTask task, CollectorJob job) {
        return rank(task.provider(), task.accountId(), task.region(), job.service());
    }
}
