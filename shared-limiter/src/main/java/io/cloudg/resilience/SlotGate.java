package io.cloudg.resilience;

import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The local waiting line of one bulkhead. The store decides who holds a slot; this gate makes this
 * process's waiters take their turns in arrival order: while anyone waits, newcomers queue behind them.
 * A slot released in this process is handed to the head of the line at once; slots released elsewhere
 * (another worker of a fleet) or freed by lease expiry are noticed by a poll that runs only while
 * someone waits. No thread is held while waiting: waiters are futures.
 */
final class SlotGate {
    static final long POLL_NANOS = 100_000_000L;

    private final StateStore store;
    private final TimeSource time;
    private final ArrayDeque<CompletableFuture<SlotLease>> waiters = new ArrayDeque<>();
    private volatile int waiting;
    private SlotRequest lastRequest;
    private boolean polling;

    SlotGate(StateStore store, TimeSource time) {
        this.store = store;
        this.time = time;
    }

    /** Whether nobody in this process waits for this bulkhead (a caller may then take a slot directly). */
    boolean idle() {
        return waiting == 0;
    }

    /** A slot now, or a future completed with one when it is this caller's turn. */
    CompletableFuture<SlotLease> acquire(SlotRequest request) {
        if (waiting == 0) {
            SlotLease lease = store.tryAcquireSlot(request);
            if (lease != null) {
                return CompletableFuture.completedFuture(lease);
            }
        }
        CompletableFuture<SlotLease> f = new CompletableFuture<>();
        synchronized (this) {
            lastRequest = request;
            waiters.addLast(f);
            waiting = waiters.size();
        }
        pump();
        schedulePoll();
        return f;
    }

    /** A slot of this bulkhead was released in this process: serve the line. */
    void released() {
        if (waiting > 0) {
            pump();
        }
    }

    private void pump() {
        List<CompletableFuture<SlotLease>> served = new ArrayList<>();
        List<SlotLease> leases = new ArrayList<>();
        synchronized (this) {
            while (!waiters.isEmpty()) {
                CompletableFuture<SlotLease> head = waiters.peekFirst();
                if (head.isDone()) { // cancelled or timed out while waiting
                    waiters.pollFirst();
                    continue;
                }
                SlotLease lease = store.tryAcquireSlot(lastRequest);
                if (lease == null) {
                    break;
                }
                waiters.pollFirst();
                served.add(head);
                leases.add(lease);
            }
            waiting = waiters.size();
        }
        for (int i = 0; i < served.size(); i++) {
            if (!served.get(i).complete(leases.get(i))) {
                store.releaseSlot(leases.get(i)); // the waiter gave up meanwhile
                released();
            }
        }
    }

    private void schedulePoll() {
        synchronized (this) {
            if (polling || waiters.isEmpty()) {
                return;
            }
            polling = true;
        }
        time.delay(POLL_NANOS).whenComplete((v, e) -> {
            synchronized (this) {
                polling = false;
            }
            pump();
            schedulePoll();
        });
    }
}
