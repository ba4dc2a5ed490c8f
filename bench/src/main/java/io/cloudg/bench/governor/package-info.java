/**
 * JMH benchmarks of the in-memory governor's per-call overhead, side by side with resilience4j's
 * {@code RateLimiter} and Bucket4j's local bucket.
 *
 * <p>Design: the unit of work is "acquire + outcome" for one call: {@code GovernedCall} open,
 * {@code beforeSend}, {@code onSuccess}, close (and the same through {@code Governor.call}); for the
 * baselines {@code acquirePermission} + {@code onSuccess}, and {@code tryConsume(1)}. Rates and bursts
 * are 1e9, so nobody ever waits (the tear-down fails the trial if anyone did): we measure the cost of the
 * bookkeeping (breaker, bulkhead lease, AIMD state, counters), not pacing. The calls are spread over
 * {@code leaves} (1 or 1,000) pre-built EC2 scopes of one account, each a leaf of its own; every thread
 * walks them from its own offset. Thread counts come from {@code -t} (1 and 16), so one command per
 * thread count measures all four contenders in the same run. The 1-leaf vs 1,000-leaf throughput shows
 * whether independent leaves contend (they must not: no global lock). Commands and results: BENCHMARKS.md.
 *
 * <p>{@code GovernorMetricsBenchmark} measures the same two governor paths without metrics and with the
 * Prometheus registry a worker serves (the governor's listener: one counter increment per attempt), as two
 * values of a {@code @Param} in one run, so the ratio is read off one table (target: at most 10% more per
 * governed call). Its tear-down fails the trial unless the registry counted every call.
 */
package io.cloudg.bench.governor;
