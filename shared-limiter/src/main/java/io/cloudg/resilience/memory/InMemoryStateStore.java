package io.cloudg.resilience.memory;

import io.cloudg.resilience.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.core.BreakerDecision;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.Breakers;
import io.cloudg.resilience.core.BucketState;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.LeaseTable;
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
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The embedded state store: one process, state in memory, the pure functions of
 * {@code io.cloudg.resilience.core} applied under one small lock per key. There is no global lock:
 * calls on different leaves never contend, so throughput grows with the number of distinct leaves.
 * Time comes from the injected {@link TimeSource}, read once per operation.
 */
public final class InMemoryStateStore implements StateStore {
    private final TimeSource time;
    private final ConcurrentHashMap<Scope, LeafCell> leaves = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Scope, BucketCell> buckets = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Scope, LeaseTable> bulkheads = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> budgets = new ConcurrentHashMap<>();

    /** A leaf's bucket and breaker share one lock: they are always touched together. */
    private static final class LeafCell {
        LeafState bucket;
        BreakerState breaker;
    }

    private static final class BucketCell {
        BucketState state;
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

    @Override
    public Admission admit(AdmitRequest r) {
        long now = time.nanoTime();
        LeafCell leaf = cell(leaves, r.leaf(), k -> new LeafCell());
        BreakerDecision decision;
        long wait;
        synchronized (leaf) {
            if (r.breaker() != null) {
                Breakers.Admit a = Breakers.admit(leaf.breaker, now, r.breaker());
                leaf.breaker = a.state();
                decision = a.decision();
                if (decision.rejected()) {
                    return Admission.rejected(decision);
                }
            } else {
                decision = BreakerDecision.PERMIT;
            }
            Reservation<LeafState> res = Leaves.reserve(leaf.bucket, now, r.leafLimit(), r.permits());
            leaf.bucket = res.state();
            wait = res.waitNanos();
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
        BucketCell c = cell(buckets, key, k -> new BucketCell());
        synchronized (c) {
            Reservation<BucketState> res = TokenBuckets.reserve(c.state, now, limit, permits);
            c.state = res.state();
            return res.waitNanos();
        }
    }

    @Override
    public OutcomeResult record(OutcomeRequest r) {
        long now = time.nanoTime();
        LeafCell leaf = cell(leaves, r.leaf(), k -> new LeafCell());
        OutcomeResult result;
        synchronized (leaf) {
            LeafState before = leaf.bucket;
            LeafState after;
            if (r.outcome() == AttemptOutcome.THROTTLED) {
                after = Leaves.onThrottle(before, now, r.leafLimit(), r.retryAfterNanos());
            } else if (r.outcome() == AttemptOutcome.SUCCESS) {
                after = Leaves.onSuccess(before, now, r.leafLimit());
            } else {
                after = before == null ? Leaves.onSuccess(null, now, r.leafLimit()) : before;
            }
            leaf.bucket = after;
            boolean decreased = after.lastDecreaseAt() == now && (before == null || before.lastDecreaseAt() != now);
            BreakerState.Phase phase = BreakerState.Phase.CLOSED;
            boolean tripped = false;
            if (r.breaker() != null) {
                BreakerState b0 = leaf.breaker;
                BreakerState b1 = Breakers.onCallEnd(b0, now, r.breaker(), r.verdict(), r.probeGeneration());
                leaf.breaker = b1;
                phase = b1.phase();
                tripped = b1.trips() > (b0 == null ? 0 : b0.trips());
            }
            result = new OutcomeResult(decreased, after.rate(), phase, tripped);
        }
        if (r.release() != null) {
            releaseSlot(r.release());
        }
        return result;
    }

    private SlotLease acquire(SlotRequest r, long now) {
        LeaseTable t = cell(bulkheads, r.bulkhead(), k -> new LeaseTable());
        synchronized (t) {
            long id = t.acquire(now, r.leaseNanos(), r.maxConcurrency());
            return id < 0 ? null : new SlotLease(r.bulkhead(), id);
        }
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        return acquire(request, time.nanoTime());
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        LeaseTable t = bulkheads.get(lease.bulkhead());
        if (t != null) {
            synchronized (t) {
                t.release(lease.id());
            }
        }
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        long now = time.nanoTime();
        LeaseTable t = bulkheads.get(lease.bulkhead());
        if (t == null) {
            return false;
        }
        synchronized (t) {
            return t.renew(lease.id(), now, leaseNanos);
        }
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        long now = time.nanoTime();
        LeaseTable t = bulkheads.get(bulkhead);
        if (t == null) {
            return 0;
        }
        synchronized (t) {
            return t.inUse(now);
        }
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
        long now = time.nanoTime();
        List<LeafView> lv = new ArrayList<>();
        List<BreakerView> bv = new ArrayList<>();
        leaves.forEach((scope, cell) -> {
            synchronized (cell) {
                LeafState s = cell.bucket;
                if (s != null) {
                    long paused = s.pausedUntil() == io.cloudg.resilience.core.Time.NEVER ? 0
                            : Math.max(0, s.pausedUntil() - now);
                    lv.add(new LeafView(scope, s.rate(), s.ceiling(), s.throttles(), paused));
                }
                BreakerState b = cell.breaker;
                if (b != null) {
                    bv.add(new BreakerView(scope, b.phase(), b.failures(), b.cooldownNanos(), b.retryInNanos(now),
                            b.trips()));
                }
            }
        });
        return new StoreSnapshot(lv, bv);
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
