/**
 * The Redis backend's benchmark ({@link io.cloudg.bench.redis.RedisBackendBench}): governed calls per
 * second through one Redis (64 callers over 1,000 leaves) and the latency the governor adds, side by side
 * in the same run with Redisson's {@code RRateLimiter} and Bucket4j over Redis doing plain acquisitions
 * on the same server, plus an accuracy check of each at 100/s. Results: {@code BENCHMARKS.md}, section
 * "Redis backend".
 */
package io.cloudg.bench.redis;
