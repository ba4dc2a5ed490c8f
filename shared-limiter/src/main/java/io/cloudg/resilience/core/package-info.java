/**
 * The governor's algorithms as pure functions {@code (state, now, limit) -> (state', decision)}:
 * reservation token buckets ({@link io.cloudg.resilience.core.TokenBuckets}), adaptive AIMD leaves
 * ({@link io.cloudg.resilience.core.Leaves}), the circuit breaker's state machine
 * ({@link io.cloudg.resilience.core.Breakers}), the retry budget
 * ({@link io.cloudg.resilience.core.RetryBudgets}), decorrelated-jitter backoff
 * ({@link io.cloudg.resilience.core.Backoff}). The bulkhead (at most {@code max_concurrency} unexpired
 * leases, expired ones swept only when it is full) is no pure function: its rules are the
 * {@code StateStore} contract, implemented lock-free in memory and as one hash per account in Redis.
 *
 * <p>This package is the specification. The in-memory state store applies these functions to immutable
 * state by compare-and-set; the Redis backend's Lua library ({@code cloudg.lua}) re-implements each of
 * them once, line for line, and both pass the same contract suite and store bit-identical state. Nothing here reads a clock: {@code now} is always an argument.
 */
package io.cloudg.resilience.core;
