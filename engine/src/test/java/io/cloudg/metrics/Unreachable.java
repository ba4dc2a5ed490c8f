package io.cloudg.metrics;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.spi.StoreSnapshot;

/** A shared store that can be cut off: while {@link #down}, every operation fails as an unreachable Redis does. */
final class Unreachable implements StateStore {
    private final StateStore store;
    volatile boolean down;

    Unreachable(StateStore store) {
        this.store = store;
    }

    private void check() {
        if (down) {
            throw new StateStoreUnavailableException("connection refused", null);
        }
    }

    @Override
    public Admission admit(AdmitRequest request) {
        check();
        return store.admit(request);
    }

    @Override
    public OutcomeResult record(OutcomeRequest request) {
        check();
        return store.record(request);
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        check();
        return store.tryAcquireSlot(request);
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        check();
        store.releaseSlot(lease);
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        check();
        return store.renewSlot(lease, leaseNanos);
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        check();
        return store.slotsInUse(bulkhead);
    }

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        check();
        return store.tryTakeRetry(provider, size);
    }

    @Override
    public void refundRetry(String provider, int size) {
        check();
        store.refundRetry(provider, size);
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        check();
        return store.retryBudgetRemaining(provider, size);
    }

    @Override
    public StoreSnapshot snapshot() {
        check();
        return store.snapshot();
    }

    @Override
    public void clear() {
        store.clear();
    }

    @Override
    public String describe() {
        return "unreachable-test-store";
    }
}
