/**
 * The governor's algorithms as pure functions {@code (state, now, limit) -> (state', decision)}:
 * reservation token buckets ({@link io.cloudg.resilience.core.TokenBuckets}), adaptive AIMD leaves
 * ({@link io.cloudg.resilience.core.Leaves}), the circuit breaker's state machine
 * ({@link io.cloudg.resilience.core.Breakers}), the retry budget
 * ({@link io.cloudg.resilience.core.RetryBudgets}), decorrelated-jitter backoff
 * ({@link io.cloudg.resilience.core.Backoff}) and bulkhead leases
 * ({@link io.cloudg.resilience.core.LeaseTable}, the one mutable structure, used under its owner's lock).
 *
 * <p>This package is the specification. The in-memory state store applies these functions under a
 * per-key lock; the Redis backend's Lua scripts re-implement them line for line, and both pass the
 * same contract suite. Nothing here reads a clock: {@code now} is always an argument.
 */
package io.cloudg.resilience.core;
