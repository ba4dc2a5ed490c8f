package io.cloudg.resilience.spi;

/**
 * Where the governor keeps its state: leaf buckets with their AIMD state and breakers, the account and
 * provider-wide buckets, bulkhead leases and retry budgets. The in-memory store serves one process; the
 * Redis store a fleet. Both implement the rules of {@code io.cloudg.resilience.core} and pass the same
 * contract suite ({@code StateStoreContract} in this module's test jar).
 *
 * <p>Contract for every implementation:
 * <ul>
 *   <li>Each method MUST be atomic with respect to every other call on the same keys, from any thread
 *       or (for a shared store) any process.</li>
 *   <li>Each method MUST read time once, from the store's own time source (an injected
 *       {@link io.cloudg.resilience.time.TimeSource} in-process; the server's clock for a shared store),
 *       and MUST NOT mix in a caller's clock.</li>
 *   <li>{@link #admit} MUST consult the breaker before taking any token; a rejected admission MUST take
 *       nothing. An admitted one takes {@code permits} at every configured level and reports the longest
 *       wait. It MUST NOT block.</li>
 *   <li>{@link #record} MUST apply the attempt outcome to the leaf (AIMD), then the call verdict to the
 *       breaker, then release the given lease.</li>
 *   <li>Methods MUST NOT throw for unknown keys: state is created on first use from the limits in the
 *       request. A shared store MAY throw {@link StateStoreUnavailableException} when it cannot be
 *       reached; the governor then degrades.</li>
 * </ul>
 */
public interface StateStore extends AutoCloseable {

    /** The gate before an attempt: breaker, tokens at every level, optionally a bulkhead slot. */
    Admission admit(AdmitRequest request);

    /** After an attempt: AIMD on the leaf, the breaker verdict, the slot release. */
    OutcomeResult record(OutcomeRequest request);

    /**
     * {@link #record} for a caller that does not need the result (an outcome whose verdict is not FAILURE
     * cannot trip the breaker). A shared store MAY return before the outcome is applied, but every
     * operation this store starts afterwards, from any thread, MUST observe it: the next admission of the
     * same leaf sees its AIMD and breaker change, a slot acquisition sees its release. The stage completes
     * once the outcome is applied, exceptionally if it could not be (then nothing was thrown to the caller).
     * The default records at once.
     */
    default java.util.concurrent.CompletionStage<Void> recordAsync(OutcomeRequest request) {
        record(request);
        return java.util.concurrent.CompletableFuture.completedFuture(null);
    }

    /** Takes a bulkhead slot if one is free; null if all are held by unexpired leases. */
    SlotLease tryAcquireSlot(SlotRequest request);

    /** Gives a slot back. Releasing an expired or unknown lease is a no-op. */
    void releaseSlot(SlotLease lease);

    /** Extends a held lease; false if it had already expired. */
    boolean renewSlot(SlotLease lease, long leaseNanos);

    /** Slots currently held in {@code bulkhead} (unexpired leases). */
    int slotsInUse(io.cloudg.resilience.spi.Scope bulkhead);

    /** Takes one token from {@code provider}'s retry budget of {@code size}; false if less than one is left. */
    boolean tryTakeRetry(String provider, int size);

    /** Refunds 0.1 token (one success) to {@code provider}'s budget, never above {@code size}. */
    void refundRetry(String provider, int size);

    /** Tokens left in {@code provider}'s budget of {@code size}. */
    double retryBudgetRemaining(String provider, int size);

    /** Every leaf and breaker the store holds. */
    StoreSnapshot snapshot();

    /**
     * The leaves running below their ceiling and the breakers that are open, half-open or have tripped: what
     * the throttling report and the gauges show. MUST hold exactly what {@link #snapshot()} holds so restricted
     * ({@link StoreSnapshot#troubled()}), views equal, in any order. A store of many leaves SHOULD decide from
     * less than every leaf's whole state and MUST NOT hold every leaf in memory at once (a fleet's Redis keeps
     * a leaf per account x region x operation: 1.2 million at 1,000 accounts x 17 regions).
     */
    default StoreSnapshot troubled() {
        return snapshot().troubled();
    }

    /** Forgets every piece of state (tests, {@code cloudg ratelimit reset}). */
    void clear();

    /** A short description for logs, e.g. {@code memory} or {@code redis://host:6379 prefix=cloudg}. */
    String describe();

    /**
     * The status of a shared store (whether it is degraded and for how long), for the report's
     * {@code governor} field; empty for a store that is local by nature. MUST NOT block or throw.
     */
    default java.util.Optional<StoreStatus> status() {
        return java.util.Optional.empty();
    }

    /**
     * The store that keeps learned state per estate ({@link EstateKeyed}) this one is or wraps; empty when it keeps
     * none between runs. A wrapper MUST answer its delegate's.
     */
    default java.util.Optional<EstateKeyed> estateKeyed() {
        return this instanceof EstateKeyed e ? java.util.Optional.of(e) : java.util.Optional.empty();
    }

    @Override
    default void close() {
    }
}
