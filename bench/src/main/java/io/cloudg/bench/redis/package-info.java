/**
 * The Redis backend's benchmark ({@link io.cloudg.bench.redis.RedisBackendBench}): governed calls per
 * second through one Redis (64 callers over 1,000 leaves, then all on one hot leaf) and the latency the
 * governor adds, side by side in the same run with plain acquisitions of Redisson's {@code RRateLimiter},
 * Bucket4j over Redisson and over Lettuce, and a bare one-{@code EVALSHA} Lua bucket over one pipelined
 * Lettuce connection (the transport's ceiling), with Redis and client CPU per call, cloudg's ratios to each
 * contender run by run, and an accuracy check of each at 100/s. Results: {@code BENCHMARKS.md}, section
 * "Redis backend". {@link io.cloudg.bench.redis.TroubledReadBench}: what reading the troubled leaves (the
 * throttling report, the gauges) costs on a large key set, through the accounts' indexes and, in the same
 * run, by walking every leaf as the store did before it kept the indexes (BENCHMARKS.md, "Redis backend",
 * "Reading the troubled leaves").
 */
package io.cloudg.bench.redis;
