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
import io.cloudg.resilience.memory.InMemoryStateStore;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shared store that never fails a map. A call the shared (Redis) store fails to answer is paced by a local
 * in-memory store instead; only a sustained failure ({@link Outages}: several failed calls in a row over at
 * least {@code degrade_after_seconds}, none answered between) makes the process <em>degraded</em>, pacing every
 * call locally at its share of every limit (each rate, burst, bulkhead and retry budget divided by the larger of
 * {@code fleet_size_hint} and the processes last seen in the shared store, live or presumed degraded), until a
 * probe, at most one per {@code probe_interval}, finds the store again. (The processes still on the shared store
 * leave that share unspent meanwhile: {@link Presence}.) Neither the start nor the end of an episode is a burst: a
 * leaf's local bucket starts an episode drained, and its first shared admission after one also takes the
 * tokens spent locally that have not refilled yet. Learned state is not copied either way: Redis keeps the
 * fleet's state while a worker is away.
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
    private final IntSupplier liveSeen;
    private final InMemoryStateStore local;
    private final int hint;
    private final TimeSource time;
    private final Outages.Policy policy;
    private final String backend;
    private final AtomicBoolean probing = new AtomicBoolean();
    private final AtomicBoolean warned = new AtomicBoolean();
    /** Guarded by {@code this}; {@link #degraded} and {@link #streak} mirror it for the lock-free paths. */
    private Outages.State state = Outages.State.HEALTHY;
    private volatile boolean degraded;
    private volatile boolean streak;
    /** The divisor of the current (or last) episode. */
    private volatile int share;
    private long degradedTotal;
    private long episodes;
    /** Leaves whose local bucket this episode has drained already. */
    private final Set<Scope> drained = ConcurrentHashMap.newKeySet();
    /** Leaves paced locally in the last episode that still owe the shared store what they spent. */
    private final Set<Scope> owing = ConcurrentHashMap.newKeySet();

    /**
     * A store that degrades at the first failed call, at {@code 1/fleetSizeHint} (kept for callers without an
     * outage policy or a count of live processes).
     *
     * @param shared the shared store (throws {@link StateStoreUnavailableException} when unreachable)
     * @param probe answers whether the shared store is reachable again; cheap and bounded in time
     * @param local the fallback, an in-memory store
     * @param fleetSizeHint how many workers share the quotas
     * @param time the clock for the probe interval and the degraded time
     * @param probeIntervalNanos the least time between two probes
     * @param backend the shared backend's name for the report, e.g. {@code redis}
     */
    public DegradingStateStore(StateStore shared, BooleanSupplier probe, InMemoryStateStore local, int fleetSizeHint,
                               TimeSource time, long probeIntervalNanos, String backend) {
        this(shared, probe, () -> 0, local, fleetSizeHint, time, checkedPolicy(fleetSizeHint, probeIntervalNanos),
                backend);
    }

    /**
     * @param shared the shared store (throws {@link StateStoreUnavailableException} when unreachable)
     * @param probe answers whether the shared store is reachable again; cheap and bounded in time
     * @param liveSeen the processes last seen in the shared store, live or presumed degraded (0 when not known)
     * @param local the fallback, an in-memory store on {@code time}
     * @param fleetSizeHint the least share a degraded process takes
     * @param time the clock of every decision here (streaks, probes, degraded time) and of {@code local}
     * @param policy when the shared store counts as lost and how often it is probed
     * @param backend the shared backend's name for the report, e.g. {@code redis}
     */
    DegradingStateStore(StateStore shared, BooleanSupplier probe, IntSupplier liveSeen, InMemoryStateStore local,
                        int fleetSizeHint, TimeSource time, Outages.Policy policy, String backend) {
        if (fleetSizeHint < 1) {
            throw new IllegalArgumentException("fleet size hint must be >= 1, but was " + fleetSizeHint);
        }
        this.shared = shared;
        this.probe = probe;
        this.liveSeen = liveSeen;
        this.local = local;
        this.hint = fleetSizeHint;
        this.time = time;
        this.policy = policy;
        this.backend = backend;
        this.share = fleetSizeHint;
    }

    private static Outages.Policy checkedPolicy(int fleetSizeHint, long probeIntervalNanos) {
        if (fleetSizeHint < 1 || probeIntervalNanos <= 0) {
            throw new IllegalArgumentException("fleet size hint must be >= 1 and the probe interval positive, but were "
                    + fleetSizeHint + " and " + probeIntervalNanos + " ns");
        }
        return Outages.Policy.immediate(probeIntervalNanos);
    }

    /** Whether calls are paced locally right now. */
    public boolean degraded() {
        return degraded;
    }

    /** The divisor of every limit in the current episode (or the last one; the hint before any). */
    public int share() {
        return share;
    }

    // ------------------------------------------------------------------ switching

    private <T> T run(Function<StateStore, T> onShared, Function<StateStore, T> onLocal) {
        if (useLocal()) {
            return onLocal.apply(local);
        }
        try {
            return onShared.apply(shared);
        } catch (StateStoreUnavailableException e) {
            failed(e);
            return onLocal.apply(local);
        }
    }

    private boolean useLocal() {
        if (!degraded) {
            return false;
        }
        long now = time.nanoTime();
        boolean due;
        synchronized (this) {
            due = Outages.probeDue(state, now, policy);
        }
        if (due && probing.compareAndSet(false, true)) {
            try {
                boolean back = probe.getAsBoolean();
                probed(time.nanoTime(), back);
            } finally {
                probing.set(false);
            }
        }
        return degraded;
    }

    /**
     * The shared store answered an admission: a streak of failures (if any) ends. Only admissions count: each is
     * a round trip, where other operations may be answered without one (a plain success sends nothing, refunds
     * and releases are batched) and would end a streak Redis had no part in.
     */
    private void answered() {
        if (streak) {
            synchronized (this) {
                state = Outages.answered(state);
                streak = state.failures() > 0;
            }
        }
    }

    /** The shared store failed a call: the streak grows, and may make an episode. */
    private void failed(StateStoreUnavailableException e) {
        int seen = liveSeen.getAsInt();
        long now = time.nanoTime();
        String msg;
        synchronized (this) {
            Outages.State before = state;
            state = Outages.failed(before, now, policy, Outages.share(hint, seen));
            streak = state.failures() > 0;
            if (before.degraded() || !state.degraded()) {
                if (!state.degraded()) {
                    share = Outages.share(hint, seen); // the failed call is paced locally, as an episode would
                    LOG.debug("Governor state store {} failed a call ({}; {} in a row): that call is paced locally",
                            shared.describe(), e.getMessage(), state.failures());
                }
                return;
            }
            share = state.share();
            episodes++;
            drained.clear();
            owing.clear();
            degraded = true;
            int n = before.failures() + 1;
            msg = "Governor state store " + shared.describe() + " is unreachable (" + e.getMessage() + "; "
                    + n + (n == 1 ? " call" : " calls in a row") + " failed over "
                    + seconds(n == 1 ? 0 : now - before.streakSince()) + " s); pacing locally at 1/"
                    + share + " of every limit (" + (seen > 0 ? seen + " processes last seen live there" : "no live processes seen there yet")
                    + ", fleet_size_hint " + hint + ") until it is back";
        }
        if (warned.compareAndSet(false, true)) {
            LOG.warn(msg);
        } else {
            LOG.info(msg);
        }
    }

    private void probed(long now, boolean back) {
        long spent;
        synchronized (this) {
            if (!state.degraded()) {
                return;
            }
            long since = state.since();
            state = Outages.probed(state, now, back);
            if (state.degraded()) {
                return;
            }
            spent = now - since;
            degradedTotal += spent;
            owing.addAll(local.knownLeaves());
            streak = false;
            degraded = false;
        }
        LOG.info("Governor state store {} is back after {} s; fleet-wide pacing resumed", shared.describe(),
                seconds(spent));
    }

    private static double seconds(long nanos) {
        return Math.round(nanos / 1e6) / 1e3;
    }

    @Override
    public synchronized Optional<StoreStatus> status() {
        long total = degradedTotal + (state.degraded() ? time.nanoTime() - state.since() : 0);
        return Optional.of(new StoreStatus(backend, state.degraded(), total, episodes));
    }

    // ------------------------------------------------------------------ the local share

    LeafLimit share(LeafLimit l) {
        return Outages.share(l, share);
    }

    /** A learned window's quota shared as the limits are: each process spends 1/share of it. */
    QuotaWindow share(QuotaWindow w) {
        int n = share;
        return w.sized() ? w.withSize(Math.max(1, w.calls() / n), w.windowNanos()) : w;
    }

    BucketLimit share(BucketLimit b) {
        int n = share;
        return b == null ? null : new BucketLimit(b.rateRps() / n, Math.max(1, b.burst() / n));
    }

    SlotRequest share(SlotRequest s) {
        int n = share;
        return s == null ? null : new SlotRequest(s.bulkhead(), Math.max(1, s.maxConcurrency() / n), s.leaseNanos());
    }

    int share(int budget) {
        return Math.max(1, budget / share);
    }

    private static SlotLease localLease(SlotLease l) {
        return l == null ? null : new SlotLease(l.bulkhead(), -l.id());
    }

    private static boolean isLocal(SlotLease l) {
        return l != null && l.id() < 0;
    }

    /**
     * The admission on the local store at the share; a leaf's first of an episode also takes what its local
     * bucket holds ({@link Outages#entryDrain}), so that losing the shared store is no burst.
     */
    private Admission admitLocally(StateStore s, AdmitRequest r) {
        LeafLimit leafLimit = share(r.leafLimit());
        int permits = r.permits();
        if (degraded && drained.add(r.leaf())) {
            permits += Outages.entryDrain(local.leafState(r.leaf()), time.nanoTime(), leafLimit);
        }
        Admission a = s.admit(new AdmitRequest(r.provider(), share(r.global()), r.account(), share(r.accountLimit()),
                r.leaf(), leafLimit, r.breaker(), share(r.slot()), permits));
        BreakerDecision d = a.breaker();
        if (d.probe()) {
            d = new BreakerDecision(d.kind(), -d.probeGeneration(), d.retryInNanos());
        }
        return new Admission(d, a.waitNanos(), localLease(a.lease()));
    }

    // ------------------------------------------------------------------ StateStore

    @Override
    public Admission admit(AdmitRequest r) {
        return run(s -> {
            Admission a = s.admit(owed(r));
            answered();
            return a;
        }, s -> admitLocally(s, r));
    }

    /**
     * {@code r}, taking besides its own tokens what this process spent locally on the leaf in the last episode
     * and has not refilled yet ({@link Outages#returnDebt}): once per leaf after an episode, so that coming back
     * to the shared store is no burst.
     */
    private AdmitRequest owed(AdmitRequest r) {
        if (owing.isEmpty() || !owing.remove(r.leaf())) {
            return r;
        }
        int debt = Outages.returnDebt(local.leafState(r.leaf()), time.nanoTime(), share(r.leafLimit()));
        return debt == 0 ? r : new AdmitRequest(r.provider(), r.global(), r.account(), r.accountLimit(), r.leaf(),
                r.leafLimit(), r.breaker(), r.slot(), r.permits() + debt);
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
                        failed((StateStoreUnavailableException) c);
                        local.record(toLocal(r));
                        f.complete(null);
                    } else {
                        f.completeExceptionally(c);
                    }
                });
            } catch (StateStoreUnavailableException e) {
                failed(e);
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

    /** The shared store's: what a degraded process learns locally is not kept, the shared store kept the estate's. */
    @Override
    public java.util.Optional<io.cloudg.resilience.spi.EstateKeyed> estateKeyed() {
        return shared.estateKeyed();
    }

    /** Whether the shared store answers now (one probe, bounded in time). */
    public boolean sharedReachable() {
        return probe.getAsBoolean();
    }

    @Override
    public String describe() {
        return shared.describe() + (degraded ? " (degraded: local at 1/" + share + ")" : "");
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
