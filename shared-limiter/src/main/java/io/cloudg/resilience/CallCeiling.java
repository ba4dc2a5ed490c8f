package io.cloudg.resilience;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's ceiling on calls in flight ({@code ratelimit.max_calls_in_flight}): one more bulkhead, over every
 * provider and account of this process, taken after the call's own account's slot and given back with it. It is
 * local to the process in every backend (a fleet's bulkheads are shared through the store; what one process can
 * carry is its own), and waiting for it holds no thread: waiters are futures, served in arrival order as places
 * are given back, as {@link SlotGate} serves a bulkhead's line.
 *
 * <p>A place is taken without a lock while nobody waits ({@code held < max} by compare-and-set, so the ceiling is
 * hard under any interleaving); while someone waits, newcomers queue behind them.
 */
final class CallCeiling {
    private final AtomicInteger held = new AtomicInteger();
    private final ArrayDeque<CompletableFuture<Void>> waiters = new ArrayDeque<>();
    private volatile int max;
    private volatile int waiting;

    CallCeiling(int max) {
        this.max = max;
    }

    /** Places held: calls in flight in this process. */
    int held() {
        return held.get();
    }

    /** Calls waiting for a place. */
    int waiting() {
        return waiting;
    }

    int max() {
        return max;
    }

    /** Whether a call would get a place at once (below the ceiling, nobody queued). */
    boolean hasRoom() {
        return waiting == 0 && held.get() < max;
    }

    /** A new ceiling (a reconfigured governor); waiters are served at once if it rose. */
    void resize(int newMax) {
        max = newMax;
        pump();
    }

    /** A place now, or a future completed when it is this caller's turn. Cancelling the future gives up the turn. */
    CompletableFuture<Void> acquire() {
        if (waiting == 0 && reserve()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        synchronized (this) {
            waiters.addLast(f);
            waiting = waiters.size();
        }
        pump(); // a place given back between the failed reservation and the queueing
        return f;
    }

    /** Gives a place back: the head of the line, if any, takes it. */
    void release() {
        held.decrementAndGet();
        if (waiting > 0) {
            pump();
        }
    }

    private boolean reserve() {
        int m = max; // one read: the ceiling may be changed meanwhile
        return held.getAndUpdate(h -> h < m ? h + 1 : h) < m;
    }

    private void pump() {
        List<CompletableFuture<Void>> served = new ArrayList<>();
        synchronized (this) {
            while (!waiters.isEmpty()) {
                CompletableFuture<Void> head = waiters.peekFirst();
                if (head.isDone()) { // cancelled while waiting
                    waiters.pollFirst();
                    continue;
                }
                if (!reserve()) {
                    break;
                }
                served.add(waiters.pollFirst());
            }
            waiting = waiters.size();
        }
        for (CompletableFuture<Void> f : served) {
            if (!f.complete(null)) {
                release(); // the waiter gave up meanwhile
            }
        }
    }
}
