/**
 * Collection as data: a {@link io.cloudg.collect.CollectionTask} is one account x region with its
 * {@link io.cloudg.collect.CollectorJob}s; the embedded {@link io.cloudg.collect.TaskRunner} runs them each on
 * a virtual thread, a bounded number at once, heaviest first and interleaved over tasks, each job under its own
 * task ledger, and
 * {@link io.cloudg.collect.Coverage} turns each job's ending into SUCCESS, PARTIAL or FAILED. The fleet
 * reuses {@link io.cloudg.collect.TaskRunner#runJob} on its workers, so both modes judge coverage alike.
 */
package io.cloudg.collect;
