/**
 * The embedded (single-process) state store: a {@code ConcurrentHashMap} of small cells, one lock per
 * leaf (bucket and breaker together), per fixed bucket and per bulkhead, each applying the pure
 * functions of {@code io.cloudg.resilience.core}. No lock spans keys, and no lock is held while anyone
 * waits: waits are computed by reservation and slept by the caller outside the store.
 */
package io.cloudg.resilience.memory;
