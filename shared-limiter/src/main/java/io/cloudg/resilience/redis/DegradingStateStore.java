package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerDecision;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.time.TimeSource;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shared store that never fails a map: while the shared (Redis) store cannot be reached it paces calls
 * with a local in-memory store at a conservative share of every limit (each rate, burst, bulkhead and
 * retry budget divided by {@code fleet_size_hint}, so a fleet that lost Redis together stays within the
 * quota), and goes back to the shared store once a probe, at most one per {@code probe_interval}, finds it
 * again. Learned state is not copied either way: Redis keeps the fleet's state while a worker is away.
 *
 * <p>Logs one WARNING (the first time the shared store is lost in this process; later losses and every
 * return are logged at INFO) and reports {@link #status()}: {@code degraded} with the time spent so.
 * Leases and probe generations handed out by the local store are negative, so a slot taken while degraded
 * is released locally even after the shared store came back (and vice versa a shared lease whose release
 * cannot be sent simply expires within its lease time).
 */
public final class DegradingStateStore implements StateStore {
    static final Logger LOG = LoggerFactory.getLogger("cloudg.governor");

    private final StateStore shared;
    private final BooleanSupplier probe;
    private final StateStore local;
    private final int fleet;
    private final TimeSource time;
    private final long probeIntervalNanos;
    private final String backend;
    private final AtomicBoolean probing = new AtomicBoolean();
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile boolean degraded;
    private long degradedSince;
    private long degradedTotal;
    private long episodes;
    private volatile long lastProbe;

    /**
     * @param shared the shared store (throws {@link StateStoreUnavailableException} when unreachable)
     * @param probe answers whether the shared store is reachable again; cheap and bounded in time
     * @param local the fallback, an in-memory store
     * @param fleetSizeHint how many workers share the quotas
     * @param time the clock for the probe interval and the degraded time
     * @param probeIntervalNanos the least time between two probes
     * @param backend the shared backend's name for the report, e.g. {@code redis}
     */
    public DegradingStateStore(StateStore shared, BooleanSupplier probe, StateStore local, int fleetSizeHint,
                               TimeSource time, long probeIntervalNanos, String backend) {
        if (fleetSizeHint < 1 || probeIntervalNanos <= 0) {
            throw new IllegalArgumentException("fleet size hint must be >= 1 and the probe interval positive, but were "
                    + fleetSizeHint + " and " + probeIntervalNanos + " ns");
        }
        this.shared = shared;
        this.probe = probe;
        this.local = local;
        this.fleet = fleetSizeHint;
        this.time = time;
        this.probeIntervalNanos = probeIntervalNanos;
        this.backend = backend;
    }

    /** Whether calls are paced locally right now. */
    public boolean degraded() {
        return degraded;
    }

    // ------------------------------------------------------------------ switching

    private <T> T run(Function<StateStore, T> onShared, Function<StateStore, T> onLocal) {
        if (useLocal()) {
            return onLocal.apply(local);
        }
        try {
            return onShared.apply(shared);
        } catch (StateStoreUnavailableException e) {
            enterDegraded(e);
            return onLocal.apply(local);
        }
    }

    private boolean useLocal() {
        if (!degraded) {
            return false;
        }
        long now = time.nanoTime();
        if (now - lastProbe >= probeIntervalNanos && probing.compareAndSet(false, true)) {
            try {
                lastProbe = now;
                if (probe.getAsBoolean()) {
                    exitDegraded();
                }
            } finally {
                probing.set(false);
            }
        }
        return degraded;
    }

    private synchronized void enterDegraded(StateStoreUnavailableException e) {
        if (degraded) {
            return;
        }
        long now = time.nanoTime();
        degradedSince = now;
        lastProbe = now;
        episodes++;
        degraded = true;
        String msg = "Governor state store " + shared.describe() + " is unreachable (" + e.getMessage()
                + "); pacing locally at 1/" + fleet + " of every limit until it is back";
        if (warned.compareAndSet(false, true)) {
            LOG.warn(msg);
        } else {
            LOG.info(msg);
        }
    }

    private synchronized void exitDegraded() {
        if (!degraded) {
            return;
        }
        long spent = time.nanoTime() - degradedSince;
        degradedTotal += spent;
        degraded = false;
        LOG.info("Governor state store {} is back after {} s; fleet-wide pacing resumed", shared.describe(),
                Math.round(spent / 1e6) / 1e3);
    }

    @Override
    public synchronized Optional<StoreStatus> status() {
        long total = degradedTotal + (degraded ? time.nanoTime() - degradedSince : 0);
        return Optional.of(new StoreStatus(backend, degraded, total, episodes));
    }

    // ------------------------------------------------------------------ the local share

    LeafLimit share(LeafLimit l) {
        return new LeafLimit(l.ceilingRps() / fleet, Math.max(1, l.burst() / fleet), l.minRps(), l.adaptive());
    }

    /** A learned window's quota shared as the limits are: each process spends 1/fleet of it. */
    QuotaWindow share(QuotaWindow w) {
        return w.sized() ? w.withSize(Math.max(1, w.calls() / fleet), w.windowNanos()) : w;
    }

    BucketLimit share(BucketLimit b) {
        return b == null ? null : new BucketLimit(b.rateRps() / fleet, Math.max(1, b.burst() / fleet));
    }

    SlotRequest share(SlotRequest s) {
        return s == null ? null : new SlotRequest(s.bulkhead(), Math.max(1, s.maxConcurrency() / fleet), s.leaseNanos());
    }

    int share(int budget) {
        return Math.max(1, budget / fleet);
    }

    private static SlotLease localLease(SlotLease l) {
        return l == null ? null : new SlotLease(l.bulkhead(), -l.id());
    }

    private static boolean isLocal(SlotLease l) {
        return l != null && l.id() < 0;
    }

    private Admission admitLocally(StateStore s, AdmitRequest r) {
        Admission a = s.admit(new AdmitRequest(r.provider(), share(r.global()), r.account(), share(r.accountLimit()),
                r.leaf(), share(r.leafLimit()), r.breaker(), share(r.slot()), r.permits()));
        BreakerDecision d = a.breaker();
        if (d.probe()) {
            d = new BreakerDecision(d.kind(), -d.probeGeneration(), d.retryInNanos());
        }
        return new Admission(d, a.waitNanos(), localLease(a.lease()));
    }

    // ------------------------------------------------------------------ StateStore

    @Override
    public Admission admit(AdmitRequest r) {
        return run(s -> s.admit(r), s -> admitLocally(s, r));
    }

    private static OutcomeRequest toShared(OutcomeRequest r) {
        SlotLease release = r.release();
        long gen = r.probeGeneration();
        return gen >= 0 && !isLocal(release) ? r : new OutcomeRequest(r.leaf(), r.leafLimit(), r.outcome(),
                r.retryAfterNanos(), r.breaker(), r.verdict(), gen < 0 ? 0 : gen, isLocal(release) ? null : release,
                r.window());
    }

    private OutcomeRequest toLocal(OutcomeRequest r) {
        long gen = r.probeGeneration();
        return new OutcomeRequest(r.leaf(), share(r.leafLimit()), r.outcome(), r.retryAfterNanos(), r.breaker(),
                r.verdict(), gen < 0 ? -gen : 0, null, share(r.window()));
    }

    @Override
    public OutcomeResult record(OutcomeRequest r) {
        OutcomeResult result = run(s -> s.record(toShared(r)), s -> s.record(toLocal(r)));
        if (isLocal(r.release())) {
            local.releaseSlot(localLease(r.release())); // wherever the outcome went, a local slot goes back locally
        }
        return result;
    }

    /**
     * Hands the outcome to the shared store without waiting for it (see {@link StateStore#recordAsync}); if
     * the shared store turns out to be unreachable, the outcome goes to the local store instead, as
     * {@link #record} does, and the store degrades.
     */
    @Override
    public CompletionStage<Void> recordAsync(OutcomeRequest r) {
        CompletionStage<Void> done;
        if (useLocal()) {
            local.record(toLocal(r));
            done = CompletableFuture.completedFuture(null);
        } else {
            CompletableFuture<Void> f = new CompletableFuture<>();
            try {
                shared.recordAsync(toShared(r)).whenComplete((v, e) -> {
                    Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    if (c == null) {
                        f.complete(null);
                    } else if (c instanceof StateStoreUnavailableException) {
                        enterDegraded((StateStoreUnavailableException) c);
                        local.record(toLocal(r));
                        f.complete(null);
                    } else {
                        f.completeExceptionally(c);
                    }
                });
            } catch (StateStoreUnavailableException e) {
                enterDegraded(e);
                local.record(toLocal(r));
                f.complete(null);
            }
            done = f;
        }
        if (isLocal(r.release())) {
            local.releaseSlot(localLease(r.release())); // wherever the outcome went, a local slot goes back locally
        }
        return done;
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        return run(s -> s.tryAcquireSlot(request), s -> localLease(s.tryAcquireSlot(share(request))));
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        if (isLocal(lease)) {
            local.releaseSlot(localLease(lease));
            return;
        }
        run(s -> {
            s.releaseSlot(lease);
            return null;
        }, s -> null); // unreachable: the shared lease expires within its lease time
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        if (isLocal(lease)) {
            return local.renewSlot(localLease(lease), leaseNanos);
        }
        return run(s -> s.renewSlot(lease, leaseNanos), s -> false);
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        return run(s -> s.slotsInUse(bulkhead), s -> s.slotsInUse(bulkhead));
    }

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        return run(s -> s.tryTakeRetry(provider, size), s -> s.tryTakeRetry(provider, share(size)));
    }

    @Override
    public void refundRetry(String provider, int size) {
        run(s -> {
            s.refundRetry(provider, size);
            return null;
        }, s -> {
            s.refundRetry(provider, share(size));
            return null;
        });
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        return run(s -> s.retryBudgetRemaining(provider, size), s -> s.retryBudgetRemaining(provider, share(size)));
    }

    @Override
    public StoreSnapshot snapshot() {
        return run(StateStore::snapshot, StateStore::snapshot);
    }

    @Override
    public StoreSnapshot troubled() {
        return run(StateStore::troubled, StateStore::troubled);
    }

    @Override
    public void clear() {
        local.clear();
        run(s -> {
            s.clear();
            return null;
        }, s -> null);
    }

    /** Whether the shared store answers now (one probe, bounded in time). */
    public boolean sharedReachable() {
        return probe.getAsBoolean();
    }

    @Override
    public String describe() {
        return shared.describe() + (degraded ? " (degraded: local at 1/" + fleet + ")" : "");
    }

    @Override
    public void close() {
        try {
            shared.close();
        } finally {
            local.close();
        }
    }
}
