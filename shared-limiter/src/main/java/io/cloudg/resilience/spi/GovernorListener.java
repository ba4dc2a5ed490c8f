package io.cloudg.resilience.spi;


/**
 * Hears what the governor does, for metrics, without the governor knowing any metrics library: the
 * governor asks once per call scope for the {@link LeafListener} of that scope's leaf, keeps it with the
 * scope's plan, and tells it of every attempt's result, retry, wait for tokens and breaker trip. A
 * listener that wants per-provider or per-service counters returns the same {@link LeafListener} for
 * every leaf that maps to the same labels, so the hot path does no lookup.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #leaf} MAY be called from any thread, more than once for the same leaf (after
 *       {@code Governor.reconfigure}, or for each operation of a per-service leaf); it MUST be
 *       thread-safe and MUST NOT return null.</li>
 *   <li>What it returns MUST follow {@link LeafListener}'s contract (no blocking, no throwing).</li>
 * </ul>
 */
@FunctionalInterface
public interface GovernorListener {
    /** Hears nothing (the default): the governor then costs what it cost without listeners. */
    GovernorListener NONE = leaf -> LeafListener.NONE;

    /**
     * The listener for calls paced by {@code leaf}: provider, account, region, service, and the operation
     * when the leaf is per operation (null otherwise).
     */
    LeafListener leaf(Scope leaf);
}
