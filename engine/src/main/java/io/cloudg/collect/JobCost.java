package io.cloudg.collect;

/** The calls a collector job is expected to make; what orders the jobs (heaviest first). */
@FunctionalInterface
public interface JobCost {
    /** Every job alike: the order is the interleaved one alone. */
    JobCost NONE = (task, job) -> 0;

    long calls(CollectionTask task, CollectorJob job);
}
