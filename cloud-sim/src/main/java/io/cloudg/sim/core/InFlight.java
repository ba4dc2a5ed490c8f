package io.cloudg.sim.core;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Calls in flight at the simulator: from a request's arrival to its answer being written (the latency included),
 * overall and per account, with the highest either reached. What a client's concurrency looks like from the
 * provider's side: tests read it to check that a client keeps many calls going at once and never more than its
 * bulkhead allows per account.
 *
 * <p>A frontend {@link #begin begins} a request on the thread that handles it, and {@link #end ends} it when the
 * answer goes out (after the latency, on another thread). The call's account is learned in between, when the
 * request reaches the {@link Gate} on that same thread ({@link #attribute}); only requests that reach the gate
 * count (admin requests, malformed ones and those refused before the gate do not).
 */
public final class InFlight {
    private final Count overall = new Count();
    private final ConcurrentHashMap<String, Count> accounts = new ConcurrentHashMap<>();
    private final ThreadLocal<Request> handling = new ThreadLocal<>();

    /** One request being answered. */
    public static final class Request {
        private Count account;
        private boolean counted;
        private boolean ended;
    }

    private static final class Count {
        final AtomicInteger now = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();

        void up() {
            peak.accumulateAndGet(now.incrementAndGet(), Math::max);
        }

        void down() {
            now.decrementAndGet();
        }
    }

    /** A request arrives on this thread; what the gate learns of it until {@link #unbind()} is its. */
    public Request begin() {
        Request r = new Request();
        handling.set(r);
        return r;
    }

    /** The handling thread is done with the request (its answer may still wait for the latency). */
    public void unbind() {
        handling.remove();
    }

    /** The request this thread handles reached the gate as a call of {@code scope}: it counts from now. */
    public void attribute(CallScope scope) {
        Request r = handling.get();
        if (r == null || r.counted) {
            return;
        }
        String key = scope.provider().id() + "/" + scope.account();
        Count c = accounts.get(key);
        if (c == null) {
            c = accounts.computeIfAbsent(key, k -> new Count());
        }
        synchronized (r) {
            r.counted = true;
            r.account = c;
            if (r.ended) {
                return;
            }
            overall.up();
            c.up();
        }
    }

    /** The request's answer went out (or its connection was dropped). Ending it twice counts once. */
    public void end(Request r) {
        if (r == null) {
            return;
        }
        synchronized (r) {
            if (r.ended) {
                return;
            }
            r.ended = true;
            if (r.counted) {
                overall.down();
                r.account.down();
            }
        }
    }

    public Snapshot snapshot() {
        Map<String, Peak> perAccount = new TreeMap<>();
        accounts.forEach((k, c) -> perAccount.put(k, new Peak(c.now.get(), c.peak.get())));
        return new Snapshot(overall.now.get(), overall.peak.get(), perAccount);
    }

    /** Calls in flight now and the most at once so far. */
    public record Peak(int now, int peak) {
    }

    /**
     * @param now        calls in flight now
     * @param peak       the most calls in flight at once since the simulator started
     * @param perAccount the same per {@code provider/account} ({@code aws/123456789012}, {@code azure/SUBSCRIPTION},
     *                   {@code gcp/PROJECT}), in name order
     */
    public record Snapshot(int now, int peak, Map<String, Peak> perAccount) {
        /** The highest per-account peak. */
        public int highestAccountPeak() {
            return perAccount.values().stream().mapToInt(Peak::peak).max().orElse(0);
        }
    }
}
