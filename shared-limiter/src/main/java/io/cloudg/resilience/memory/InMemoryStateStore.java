package io.cloudg.resilience.memory;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.core.BreakerDecision;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.Breakers;
import io.cloudg.resilience.core.BucketState;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Leaves;
import io.cloudg.resilience.core.Reservation;
import io.cloudg.resilience.core.RetryBudgets;
import io.cloudg.resilience.core.TokenBuckets;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.BreakerView;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.time.TimeSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The embedded state store: one process, state in memory, the pure functions of
 * {@code io.cloudg.resilience.core} applied to immutable state, one atomic reference per key, replaced by
 * compare-and-set (a conflicting update is recomputed). There is no global lock, and no lock at all:
 * calls on different leaves never contend, so throughput grows with the number of distinct leaves, and a
 * thread descheduled mid-update (routine when threads outnumber cores) blocks nobody. The bulkheads, which
 * every leaf of an account shares, are lock-free too ({@link Bulkhead}).
 *
 * <p>Time comes from the injected {@link TimeSource}, read once per attempt at an update, after reading
 * the state it updates. So a leaf's {@code now} is never behind the {@code refilledAt} another thread
 * just committed: reading the clock first, a thread overtaken (or descheduled) before its update would
 * find {@code refilledAt} ahead of its {@code now} and be told to wait for a pause that does not exist
 * (with 16 threads on 2 cores, milliseconds per call). The account and provider-wide buckets reuse the
 * leaf's reading and clamp it to their own {@code refilledAt}, since they are never paused.
 */
public final class InMemoryStateStore implements StateStore {
    private final TimeSource time;
    private final ConcurrentHashMap<Scope, AtomicReference<Leaf>> leaves = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Scope, AtomicReference<BucketState>> buckets = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Scope, Bulkhead> bulkheads = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> budgets = new ConcurrentHashMap<>();

    /** A leaf's bucket and breaker, replaced together: they are always touched together. Immutable. */
    private record Leaf(LeafState bucket, BreakerState breaker) {
        static final Leaf EMPTY = new Leaf(null, null);
    }

    public InMemoryStateStore(TimeSource time) {
        if (time == null) {
            throw new IllegalArgumentException("time source must not be null");
        }
        this.time = time;
    }

    public TimeSource timeSource() {
        return time;
    }

    private static <K, V> V cell(ConcurrentHashMap<K, V> map, K key, Function<K, V> create) {
        V v = map.get(key);
        return v != null ? v : map.computeIfAbsent(key, create);
    }

    private AtomicReference<Leaf> leaf(Scope key) {
        return cell(leaves, key, k -> new AtomicReference<>(Leaf.EMPTY));
    }

    @Override
    public Admission admit(AdmitRequest r) {
        AtomicReference<Leaf> ref = leaf(r.leaf());
        BreakerDecision decision;
        long wait;
        long now;
        while (true) {
            Leaf cur = ref.get();
            now = time.nanoTime(); // after reading the state: see the class comment
            BreakerState breaker = cur.breaker();
            if (r.breaker() != null) {
                Breakers.Admit a = Breakers.admit(breaker, now, r.breaker());
                decision = a.decision();
                if (decision.rejected()) {
                    if (a.state() == breaker || ref.compareAndSet(cur, new Leaf(cur.bucket(), a.state()))) {
                        return Admission.rejected(decision);
                    }
                    continue;
                }
                breaker = a.state();
            } else {
                decision = BreakerDecision.PERMIT;
            }
            Reservation<LeafState> res = Leaves.reserve(cur.bucket(), now, r.leafLimit(), r.permits());
            if (ref.compareAndSet(cur, new Leaf(res.state(), breaker))) {
                wait = res.waitNanos();
                break;
            }
        }
        if (r.accountLimit() != null) {
            wait = Math.max(wait, reserveFixed(r.account(), r.accountLimit(), now, r.permits()));
        }
        if (r.global() != null) {
            wait = Math.max(wait, reserveFixed(Scope.provider(r.provider()), r.global(), now, r.permits()));
        }
        SlotLease lease = r.slot() == null || wait > 0 ? null : acquire(r.slot(), now);
        return new Admission(decision, wait, lease);
    }

    private long reserveFixed(Scope key, BucketLimit limit, long now, int permits) {
        AtomicReference<BucketState> ref = cell(buckets, key, k -> new AtomicReference<>());
        while (true) {
            BucketState cur = ref.get();
            // A fixed bucket is never paused, so refilledAt > now only means another thread read the clock
            // later and got here first: that is no reason to wait (see the class comment).
            long at = cur == null ? now : Math.max(now, cur.refilledAt());
            Reservation<BucketState> res = TokenBuckets.reserve(cur, at, limit, permits);
            if (ref.compareAndSet(cur, res.state())) {
                return res.waitNanos();
            }
        }
    }

    @Override
    public OutcomeResult record(OutcomeRequest r) {
        AtomicReference<Leaf> ref = leaf(r.leaf());
        OutcomeResult result;
        while (true) {
            Leaf cur = ref.get();
            long now = time.nanoTime();
            LeafState before = cur.bucket();
            LeafState after;
            if (r.outcome() == AttemptOutcome.THROTTLED) {
                after = Leaves.onThrottle(before, now, r.leafLimit(), r.retryAfterNanos(), r.window());
            } else if (r.outcome() == AttemptOutcome.SUCCESS) {
                after = Leaves.onSuccess(before, now, r.leafLimit());
            } else {
                after = before == null ? Leaves.onSuccess(null, now, r.leafLimit()) : before;
            }
            boolean decreased = after.lastDecreaseAt() == now && (before == null || before.lastDecreaseAt() != now);
            BreakerState.Phase phase = BreakerState.Phase.CLOSED;
            boolean tripped = false;
            BreakerState b1 = cur.breaker();
            if (r.breaker() != null) {
                BreakerState b0 = cur.breaker();
                b1 = Breakers.onCallEnd(b0, now, r.breaker(), r.verdict(), r.probeGeneration());
                phase = b1.phase();
                tripped = b1.trips() > (b0 == null ? 0 : b0.trips());
            }
            if ((after == before && b1 == cur.breaker()) || ref.compareAndSet(cur, new Leaf(after, b1))) {
                result = new OutcomeResult(decreased, after.rate(), phase, tripped);
                break;
            }
        }
        if (r.release() != null) {
            releaseSlot(r.release());
        }
        return result;
    }

    private SlotLease acquire(SlotRequest r, long now) {
        Bulkhead t = cell(bulkheads, r.bulkhead(), k -> new Bulkhead());
        long id = t.acquire(now, r.leaseNanos(), r.maxConcurrency());
        return id < 0 ? null : new SlotLease(r.bulkhead(), id);
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        return acquire(request, time.nanoTime());
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        Bulkhead t = bulkheads.get(lease.bulkhead());
        if (t != null) {
            t.release(lease.id());
        }
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        long now = time.nanoTime();
        Bulkhead t = bulkheads.get(lease.bulkhead());
        if (t == null) {
            return false;
        }
        return t.renew(lease.id(), now, leaseNanos);
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        long now = time.nanoTime();
        Bulkhead t = bulkheads.get(bulkhead);
        if (t == null) {
            return 0;
        }
        return t.inUse(now);
    }

    private AtomicLong budget(String provider, int size) {
        return cell(budgets, provider, k -> new AtomicLong(RetryBudgets.full(size)));
    }

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        AtomicLong b = budget(provider, size);
        while (true) {
            long cur = b.get();
            long next = RetryBudgets.take(cur);
            if (next < 0) {
                return false;
            }
            if (b.compareAndSet(cur, next)) {
                return true;
            }
        }
    }

    @Override
    public void refundRetry(String provider, int size) {
        AtomicLong b = budget(provider, size);
        long full = RetryBudgets.full(size);
        while (true) {
            long cur = b.get();
            if (cur >= full) {
                return; // the common case of a healthy provider: a read, no write
            }
            if (b.compareAndSet(cur, RetryBudgets.refund(cur, size))) {
                return;
            }
        }
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        return budget(provider, size).get() / (double) RetryBudgets.TOKEN_MILLIS;
    }

    @Override
    public StoreSnapshot snapshot() {
        return views(false);
    }

    /**
     * The same views as {@code snapshot().troubled()}, without building one for every healthy leaf: a map of
     * 1,000 accounts x 17 regions holds about a million, and the gauges read this every
     * {@code metrics.state_refresh_seconds}.
     */
    @Override
    public StoreSnapshot troubled() {
        return views(true);
    }

    private StoreSnapshot views(boolean onlyTroubled) {
        long now = time.nanoTime();
        List<LeafView> lv = new ArrayList<>();
        List<BreakerView> bv = new ArrayList<>();
        leaves.forEach((scope, ref) -> {
            Leaf cell = ref.get();
            LeafState s = cell.bucket();
            if (s != null && (!onlyTroubled || LeafView.slowed(s.rate(), s.ceiling()))) {
                long paused = s.pausedUntil() == io.cloudg.resilience.core.Time.NEVER ? 0
                        : Math.max(0, s.pausedUntil() - now);
                lv.add(new LeafView(scope, s.rate(), s.ceiling(), s.throttles(), paused));
            }
            BreakerState b = cell.breaker();
            if (b != null && (!onlyTroubled || BreakerView.troubled(b.phase(), b.trips()))) {
                bv.add(new BreakerView(scope, b.phase(), b.failures(), b.cooldownNanos(), b.retryInNanos(now),
                        b.trips()));
            }
        });
        return new StoreSnapshot(lv, bv);
    }

    /** The leaves running below their ceiling now, with their state: what a state file keeps between runs. */
    public Map<Scope, LeafState> slowedLeaves() {
        Map<Scope, LeafState> out = new HashMap<>();
        leaves.forEach((scope, ref) -> {
            LeafState s = ref.get().bucket();
            if (s != null && s.slowed()) {
                out.put(scope, s);
            }
        });
        return out;
    }

    /** Every leaf this store holds state for. */
    public java.util.Set<Scope> knownLeaves() {
        return java.util.Set.copyOf(leaves.keySet());
    }

    /**
     * Seeds {@code leaf} with state learned elsewhere (a state file, an earlier run), where this store holds
     * none yet; a leaf already in use keeps what it has.
     */
    public void restoreLeaf(Scope leaf, LeafState state) {
        leaf(leaf).compareAndSet(Leaf.EMPTY, new Leaf(state, null));
    }

    /** The stored bucket of {@code leaf}, or null if it has none (tests compare stores with it). */
    public LeafState leafState(Scope leaf) {
        AtomicReference<Leaf> ref = leaves.get(leaf);
        return ref == null ? null : ref.get().bucket();
    }

    /** The stored breaker of {@code leaf}, or null if it has none. */
    public BreakerState breakerState(Scope leaf) {
        AtomicReference<Leaf> ref = leaves.get(leaf);
        return ref == null ? null : ref.get().breaker();
    }

    /** The stored account or provider-wide bucket of {@code scope}, or null if it has none. */
    public BucketState bucketState(Scope scope) {
        AtomicReference<BucketState> ref = buckets.get(scope);
        return ref == null ? null : ref.get();
    }

    @Override
    public void clear() {
        leaves.clear();
        buckets.clear();
        bulkheads.clear();
        budgets.clear();
    }

    @Override
    public String describe() {
        return "memory";
    }
}
