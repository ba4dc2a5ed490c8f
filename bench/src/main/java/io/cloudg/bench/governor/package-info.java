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
 */
package io.cloudg.bench.governor;
