package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.BreakerDecision;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The governed call's round trips: an admission before an attempt, its outcome after it, and the bulkhead's
 * slot operations. Each is one script run ({@code admit}, {@code record}, {@code slots}), the provider-wide
 * bucket one more ({@code global}) only when {@code global_max_rps} is set.
 *
 * <p>An outcome the caller does not wait for ({@link #recordAsync}) is queued behind everything this store
 * queued before for the same provider x account, and ahead of everything it queues after ({@link
 * ScriptRunner}'s lanes). A plain success of a leaf its admission found steady runs no script at all: its slot
 * release is deferred ({@link DeferredReleases}). The arguments are laid out by {@link ScriptArgs}; what each
 * leaf needs is encoded once ({@link PreparedLeaf}), so the path builds no string.
 */
final class HotPath {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    /** A bound on the leaves kept prepared, far above any estate's leaf count. */
    private static final int MAX_PREPARED = 100_000;

    private final ScriptCalls calls;
    private final RedisKeys keys;
    private final StoreClock clock;
    private final Registrations registrations;
    private final DeferredReleases releases;
    private final long ttlMillis;
    private final String ttlMs;
    private final byte[] ttlBytes;
    private final ConcurrentHashMap<Scope, PreparedLeaf> prepared = new ConcurrentHashMap<>();
    /** The part of the shared buckets this process may spend now (Members: learned from the heartbeats). */
    private final Supplier<Members.Share> share;

    HotPath(ScriptCalls calls, RedisKeys keys, StoreClock clock, Registrations registrations, DeferredReleases releases,
            long ttlMillis, Supplier<Members.Share> share) {
        this.share = share;
        this.calls = calls;
        this.keys = keys;
        this.clock = clock;
        this.registrations = registrations;
        this.releases = releases;
        this.ttlMillis = ttlMillis;
        this.ttlMs = Long.toString(ttlMillis);
        this.ttlBytes = ScriptArgs.bytes(ttlMs);
    }

    private PreparedLeaf prepared(Scope leaf) {
        PreparedLeaf p = prepared.get(leaf);
        if (p == null) {
            if (prepared.size() >= MAX_PREPARED) {
                prepared.clear();
            }
            p = prepared.computeIfAbsent(leaf, l -> new PreparedLeaf(l, keys, registrations, ttlMillis));
        }
        return p;
    }

    /** Forgets what was prepared for {@code provider}'s leaves, whose keys change (its estate was told). */
    void forget(String provider) {
        prepared.keySet().removeIf(l -> provider.equals(l.provider()));
    }

    /** Forgets what was prepared (the state was deleted). */
    void clear() {
        prepared.clear();
    }

    private Object injectedNow() {
        return ScriptArgs.injectedNow(clock);
    }

    private static void requireSameSlot(Scope leaf, Scope account, String what) {
        if (account != null && !(Objects.equals(leaf.provider(), account.provider())
                && Objects.equals(leaf.account(), account.account()))) {
            throw new IllegalArgumentException(what + " " + account + " must belong to the leaf's account " + leaf);
        }
    }

    // ------------------------------------------------------------------ admission

    Admission admit(AdmitRequest r) {
        requireSameSlot(r.leaf(), r.accountLimit() == null ? null : r.account(), "account");
        SlotRequest slot = r.slot();
        if (slot != null) {
            requireSameSlot(r.leaf(), slot.bulkhead(), "bulkhead");
        }
        PreparedLeaf p = prepared(r.leaf());
        Members.Share spend = share.get();
        PreparedLeaf.Encoded args = p.admitArgs(r, spend);
        long epoch = p.epoch.get(); // before the admission is queued: outcomes queued after it bump it
        Object answer = calls.await(calls.call(Script.ADMIT, p.admitKeys,
                ScriptArgs.Admit.argv(injectedNow(), args.bytes(), p.leafText, p.accountText, ttlBytes, args.bytes2())),
                "admit");
        registrations.admitted(p.registration); // after it: one that found the server had lost its scripts registers again
        BreakerDecision decision;
        long wait;
        long leaseId;
        boolean steady;
        if (answer instanceof Long) {
            // the common answer (cloudg.lua's admit): a permit with no wait, (lease id + 1) * 2 + steady
            long packed = (Long) answer;
            decision = BreakerDecision.PERMIT;
            wait = 0;
            leaseId = (packed >> 1) - 1;
            steady = (packed & 1) == 1;
        } else {
            // {decision, probe generation, retry-in, wait, lease id, steady}
            List<Object> reply = ScriptCalls.list(answer);
            long kind = ScriptCalls.longOf(reply.get(0));
            if (kind == 2) {
                p.steady = null;
                return Admission.rejected(new BreakerDecision(BreakerDecision.Kind.REJECT, 0,
                        ScriptCalls.longOf(reply.get(2))));
            }
            decision = kind == 1 ? new BreakerDecision(BreakerDecision.Kind.PROBE, ScriptCalls.longOf(reply.get(1)), 0)
                    : BreakerDecision.PERMIT;
            wait = ScriptCalls.longOf(reply.get(3));
            leaseId = ScriptCalls.longOf(reply.get(4));
            steady = ScriptCalls.longOf(reply.get(5)) == 1;
        }
        p.steady = steady ? new PreparedLeaf.Steady(epoch, r.leafLimit(), r.breaker()) : null;
        SlotLease lease = leaseId < 0 ? null : new SlotLease(slot.bulkhead(), leaseId);
        if (lease == null && slot != null && wait <= 0 && releases.hasPending(slot.bulkhead())) {
            // full, but this process still holds releases back: they go first, then the slot is tried again
            // (as the in-memory store, which has them already)
            lease = tryAcquireSlot(slot);
        }
        if (r.global() != null) {
            long globalWait = ScriptCalls.longOf(calls.await(calls.call(Script.GLOBAL,
                    ScriptArgs.Global.keys(keys.global(r.provider())),
                    ScriptArgs.Global.argv(injectedNow(), r.global(), r.permits(), r.provider(), ttlMs, spend.value())),
                    "admit (global bucket)"));
            if (globalWait > 0 && lease != null) {
                releaseSlot(lease); // the slot is taken only when nothing needs to wait
                lease = null;
            }
            wait = Math.max(wait, globalWait);
        }
        return new Admission(decision, wait, lease);
    }

    // ------------------------------------------------------------------ outcome

    /** Queues the record script for {@code r} (and a release elsewhere, if its lease is of another bulkhead). */
    private CompletableFuture<Object> queueRecord(OutcomeRequest r) {
        PreparedLeaf p = prepared(r.leaf());
        PreparedLeaf.Steady st = p.steady;
        if (!(plainSuccess(r) && st != null && st.sameLimits(r))) {
            // a plain success never leaves a steady leaf unsteady (Leaves.onSuccess keeps it or steps towards
            // the ceiling, Breakers.onCallEnd keeps or clears the failures), so it voids no steady answer:
            // else many callers of one leaf would void each other's answers and every success would run
            p.epoch.incrementAndGet();
        }
        SlotLease release = r.release();
        boolean releaseHere = release != null && release.bulkhead().equals(p.accountScope);
        CompletableFuture<Object> f = calls.call(Script.RECORD, p.recordKeys,
                ScriptArgs.Record.argv(injectedNow(), p.recordLimits(r.leafLimit(), r.breaker()), r,
                        releaseHere ? ScriptArgs.number(release.id()) : ScriptArgs.EMPTY, p.leafText, ttlBytes));
        if (release != null && !releaseHere) {
            CompletableFuture<Object> other = slotsAsync("release", release.bulkhead(), Long.toString(release.id()), 0);
            return f.thenCombine(other, (a, b) -> a);
        }
        return f;
    }

    OutcomeResult record(OutcomeRequest r) {
        // {rate decreased, rate (-1: the configured ceiling), breaker phase, tripped}
        List<Object> reply = ScriptCalls.list(calls.await(queueRecord(r), "record"));
        BreakerState.Phase phase = BreakerState.Phase.values()[(int) ScriptCalls.longOf(reply.get(2))];
        Object rate = reply.get(1);
        return new OutcomeResult(ScriptCalls.longOf(reply.get(0)) == 1,
                rate instanceof Long && (Long) rate == -1 ? r.leafLimit().ceilingRps() : ScriptCalls.doubleOf(rate),
                phase, ScriptCalls.longOf(reply.get(3)) == 1);
    }

    /** A success that is not a probe's: on a steady leaf it changes nothing but the slot. */
    private static boolean plainSuccess(OutcomeRequest r) {
        return r.outcome() == AttemptOutcome.SUCCESS && r.probeGeneration() == 0
                && (r.verdict() == CallVerdict.SUCCESS || r.verdict() == CallVerdict.NONE);
    }

    /**
     * Queues the outcome and returns at once. Every script this store queues afterwards for the same node
     * (the next admission of this leaf, a slot acquisition in this bulkhead) runs after it: one connection
     * per node, scripts in queue order ({@link ScriptRunner}). The stage fails with the store's usual
     * exceptions ({@link StateStoreUnavailableException} when Redis cannot be reached); other failures (a
     * script error, state in an unknown format) are also logged, since no caller waits for them.
     *
     * <p><b>Plain successes.</b> A success (verdict SUCCESS or NONE, not a probe's) of a leaf whose last
     * admission in this store answered <em>steady</em> (cloudg.lua's admit: the leaf at its configured
     * ceiling, its breaker closed without failures, with the limits this outcome carries), and of which this
     * store has queued no outcome since but such plain successes (they cannot leave a steady leaf unsteady),
     * changes nothing in Redis but the slot: no script runs for it, and its release is deferred
     * ({@link DeferredReleases}) and sent with others of the same bulkhead in one HDEL. In this process the
     * result is the in-memory store's, outcome for outcome (any other outcome of the leaf voids the steady
     * answer; a slot operation or a full admission sends the deferred releases of its bulkhead first). Across
     * a fleet, such a success counts as of its admission: a failure another worker recorded on the leaf
     * meanwhile is not reset by it (the next success admitted after that failure resets it).
     */
    CompletionStage<Void> recordAsync(OutcomeRequest r) {
        if (plainSuccess(r)) {
            PreparedLeaf p = prepared(r.leaf());
            PreparedLeaf.Steady st = p.steady;
            if (st != null && st.vouchesFor(r, p.epoch.get())) {
                SlotLease release = r.release();
                if (release != null) {
                    releases.defer(release);
                }
                return DONE;
            }
        }
        return queueRecord(r).handle((v, e) -> {
            if (e == null) {
                return null;
            }
            RuntimeException t = calls.translate(e, "record");
            if (!(t instanceof StateStoreUnavailableException)) {
                DegradingStateStore.LOG.error("Governor outcome for {} was not recorded at {}: {}", r.leaf(),
                        calls.where(), t.getMessage());
            }
            throw t;
        });
    }

    // ------------------------------------------------------------------ bulkheads

    private CompletableFuture<Object> slotsAsync(String op, Scope bulkhead, String idOrMax, long leaseNanos) {
        return slotsAsync(op, keys.bulkhead(bulkhead), bulkhead, idOrMax, leaseNanos);
    }

    private CompletableFuture<Object> slotsAsync(String op, String key, Scope bulkhead, String idOrMax, long leaseNanos) {
        return calls.call(Script.SLOTS, ScriptArgs.Slots.keys(key),
                ScriptArgs.Slots.argv(op, injectedNow(), idOrMax, leaseNanos, ttlMs, bulkhead.toString()));
    }

    private Object slots(String op, Scope bulkhead, String idOrMax, long leaseNanos) {
        return calls.await(slotsAsync(op, bulkhead, idOrMax, leaseNanos), "bulkhead " + op);
    }

    SlotLease tryAcquireSlot(SlotRequest request) {
        releases.flush(request.bulkhead());
        long id = ScriptCalls.longOf(slots("acquire", request.bulkhead(), Integer.toString(request.maxConcurrency()),
                request.leaseNanos()));
        return id < 0 ? null : new SlotLease(request.bulkhead(), id);
    }

    void releaseSlot(SlotLease lease) {
        releases.flush(lease.bulkhead());
        slots("release", lease.bulkhead(), Long.toString(lease.id()), 0);
    }

    boolean renewSlot(SlotLease lease, long leaseNanos) {
        releases.flush(lease.bulkhead());
        return ScriptCalls.longOf(slots("renew", lease.bulkhead(), Long.toString(lease.id()), leaseNanos)) == 1;
    }

    int slotsInUse(Scope bulkhead) {
        releases.flush(bulkhead);
        return (int) ScriptCalls.longOf(slots("count", bulkhead, "0", 0));
    }

    /** The slots held in the bulkhead at {@code key} (of any estate: {@code cloudg ratelimit show}). */
    int slotsInUse(String key, Scope bulkhead) {
        releases.flush(bulkhead);
        return (int) ScriptCalls.longOf(calls.await(slotsAsync("count", key, bulkhead, "0", 0), "bulkhead count"));
    }
}
