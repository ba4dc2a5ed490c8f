package io.cloudg.resilience.spi;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A store that passes every operation to another one: a decorator overrides only what it changes (a store
 * that remembers learned rates across runs, one that counts or cuts off calls in a test). Every method,
 * {@link #recordAsync}, {@link #status} and {@link #close} included, forwards as it is; a subclass that
 * overrides one keeps the contract of {@link StateStore} for it.
 */
public abstract class ForwardingStateStore implements StateStore {
    private final StateStore delegate;

    protected ForwardingStateStore(StateStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store every operation goes to. */
    protected final StateStore delegate() {
        return delegate;
    }

    @Override
    public Admission admit(AdmitRequest request) {
        return delegate.admit(request);
    }

    @Override
    public OutcomeResult record(OutcomeRequest request) {
        return delegate.record(request);
    }

    @Override
    public CompletionStage<Void> recordAsync(OutcomeRequest request) {
        return delegate.recordAsync(request);
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        return delegate.tryAcquireSlot(request);
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        delegate.releaseSlot(lease);
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        return delegate.renewSlot(lease, leaseNanos);
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        return delegate.slotsInUse(bulkhead);
    }

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        return delegate.tryTakeRetry(provider, size);
    }

    @Override
    public void refundRetry(String provider, int size) {
        delegate.refundRetry(provider, size);
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        return delegate.retryBudgetRemaining(provider, size);
    }

    @Override
    public StoreSnapshot snapshot() {
        return delegate.snapshot();
    }

    @Override
    public StoreSnapshot troubled() {
        return delegate.troubled();
    }

    @Override
    public void clear() {
        delegate.clear();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    /** This store when it keeps learned state per estate itself, else its delegate's. */
    @Override
    public Optional<EstateKeyed> estateKeyed() {
        return this instanceof EstateKeyed e ? Optional.of(e) : delegate.estateKeyed();
    }

    @Override
    public Optional<StoreStatus> status() {
        return delegate.status();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
