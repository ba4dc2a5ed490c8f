/**
 * The embedded (single-process) state store: a {@code ConcurrentHashMap} of small cells, one lock per
 * leaf (bucket and breaker together), per fixed bucket and per bulkhead, each applying the pure
 * functions of {@code io.cloudg.resilience.core}. No lock spans keys, and no lock is held while anyone
 * waits: waits are computed by reservation and slept by the caller outside the store. Between runs, the
 * leaves it slowed are kept in a small file per estate ({@code LearnedRatesFile}, {@code LearningStateStore}):
 * a run starts from what was learned against the same organization at the same endpoint, never from another
 * estate's rates.
 */
package io.cloudg.resilience.memory;
