package io.cloudg.resilience.redis;

import io.cloudg.resilience.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerDecision;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.BucketState;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.QuotaWindow;
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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RMapAsync;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

/**
 * The fleet-wide state store: every read-modify-write is one Lua script (see {@link Script}) that applies
 * the rules of {@code io.cloudg.resilience.core}, so a fleet of workers paces each quota as one process
 * would. Key layout: {@link RedisKeys}.
 *
 * <p>Round trips: {@link #admit} is one script (breaker, leaf, account bucket and, when no wait is needed,
 * the bulkhead slot, all in the account's slot), plus one for the provider-wide bucket only when
 * {@code global_max_rps} is set. {@link #record} is one script (AIMD, breaker verdict, slot release);
 * {@link #recordAsync} queues the same script without waiting for it, and whatever this store queues later
 * for the same provider x account runs after it ({@link ScriptRunner}); for a plain success of a leaf whose
 * admission answered steady it queues nothing but a deferred release ({@link DeferredReleases}). Budget takes are one script and only
 * happen for paid retries; refunds are batched locally (see {@link #refundRetry}). Scripts queued side by
 * side go to Redis as one batch.
 *
 * <p>The hot path builds no strings: each leaf's keys and scope texts are encoded once
 * ({@link PreparedLeaf}), and the limits travel as one struct-packed argument, encoded once per limits
 * object (the governor's call plans reuse theirs); scripts answer with integers.
 *
 * <p>Time is Redis {@code TIME}, read inside each script run ({@link StoreClock#server()}); the injected
 * clock exists only for the contract suite. Learned state (leaf rate, ceiling, throttles, breaker) lives
 * in hashes whose TTL ({@code learned_ttl_hours}) is refreshed on every use, so it survives worker and
 * (with AOF) Redis restarts. Every hash carries the format version; another version is refused with a
 * {@link StateFormatException}. An unreachable Redis throws
 * {@link io.cloudg.resilience.spi.StateStoreUnavailableException}.
 */
public final class RedisStateStore implements StateStore {
    /** Refunds batched locally per provider before they are written (10 refunds = 1 token). */
    static final int REFUNDS_PER_FLUSH = 10;

    private final RedissonClient client;
    private final boolean ownsClient;
    private final RedisKeys keys;
    private final StoreClock clock;
    /** The governor's clock: this process's own timing (when to register an account again), never quota state. */
    private final TimeSource time;
    private final ScriptRunner runner;
    private final String ttlMs;
    private final byte[] ttlBytes;
    private final long timeoutMs;
    private final String where;
    private final byte[] pingKey;
    private final ConcurrentHashMap<String, BatchedRefunds> refunds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Scope, PreparedLeaf> prepared = new ConcurrentHashMap<>();
    private final DeferredReleases releases;
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    /** This store's registrations of account indexes in the estate's registry ({@link RedisKeys#registry()}). */
    private final ConcurrentHashMap<Scope, Registration> registrations = new ConcurrentHashMap<>();
    private final byte[] registryKey;
    /** How often a store says again that it uses an account: half the TTL, so the registry outlives the leaves. */
    private final long reregisterNanos;
    /** Times this store found Redis out of reach: the server may have restarted without its keys since. */
    private final java.util.concurrent.atomic.AtomicLong outages = new java.util.concurrent.atomic.AtomicLong();

    private RedisStateStore(Builder b) {
        this.client = Objects.requireNonNull(b.client, "client");
        this.ownsClient = b.ownsClient;
        this.keys = new RedisKeys(b.keyPrefix);
        this.clock = b.clock;
        this.time = b.time != null ? b.time : b.clock.timeSource().orElse(TimeSource.system());
        this.runner = new ScriptRunner(client, b.pipelineMaxBatch, b.lanesPerNode);
        long ttlMillis = Math.max(1000, b.learnedTtl.toMillis());
        this.ttlMs = Long.toString(ttlMillis);
        this.ttlBytes = bytes(ttlMs);
        this.registryKey = bytes(keys.registry());
        this.reregisterNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis) / 2;
        this.pingKey = ("{" + b.keyPrefix + "}:ping").getBytes(StandardCharsets.UTF_8);
        this.timeoutMs = b.callTimeout.toMillis();
        this.where = b.describe + " prefix=" + b.keyPrefix;
        this.releases = new DeferredReleases(runner, keys, b.releaseDelay);
        try {
            runner.loadAll();
        } catch (RuntimeException e) {
            // unreachable at start: each script is loaded on its first NOSCRIPT instead
        }
    }

    public static Builder builder(RedissonClient client) {
        return new Builder(client);
    }

    public RedisKeys keys() {
        return keys;
    }

    RedissonClient client() {
        return client;
    }

    ScriptRunner runner() {
        return runner;
    }

    DeferredReleases releases() {
        return releases;
    }

    // ------------------------------------------------------------------ plumbing

    private Object await(CompletableFuture<Object> f, String what) {
        try {
            return f.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RedisErrors.unavailable(what, where, e);
        } catch (TimeoutException e) {
            runner.reset(); // do not queue the next script behind a stuck connection
            throw counted(RedisErrors.translate(e, what, where));
        } catch (Exception e) {
            throw counted(RedisErrors.translate(e, what, where));
        }
    }

    /** {@code e}, counted as an outage when it is one (the accounts are registered again afterwards). */
    private RuntimeException counted(RuntimeException e) {
        if (e instanceof io.cloudg.resilience.spi.StateStoreUnavailableException) {
            outages.incrementAndGet();
        }
        return e;
    }

    /**
     * Changes whenever Redis may have lost this store's registrations since they were made: an outage seen, or
     * a server that had lost the scripts (a restart, a failover, a flush).
     */
    private long registryEpoch() {
        return outages.get() + runner.scriptsLost();
    }

    @SuppressWarnings("unchecked")
    private List<Object> list(Object o) {
        return (List<Object>) o;
    }

    private static String s(double v) {
        return Double.toString(v);
    }

    private static String s(long v) {
        return Long.toString(v);
    }

    /** An integer reply (or a number as text). */
    static long longOf(Object o) {
        return o instanceof Long ? (Long) o : (long) Double.parseDouble(o.toString());
    }

    static double doubleOf(Object o) {
        return o instanceof Long ? (Long) o : Double.parseDouble(o.toString());
    }

    private static final byte[] EMPTY = new byte[0];
    private static final byte[] MINUS_ONE = bytes("-1");
    private static final byte[] ZERO = bytes("0");
    private static final byte[] SUCCESS = bytes("S");
    private static final byte[] THROTTLED = bytes("T");
    private static final byte[] OTHER = bytes("O");
    private static final byte[][] VERDICTS = new byte[CallVerdict.values().length][];

    static {
        for (CallVerdict v : CallVerdict.values()) {
            VERDICTS[v.ordinal()] = bytes(v.name());
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] number(long v) {
        return v == -1 ? MINUS_ONE : v == 0 ? ZERO : bytes(Long.toString(v));
    }

    /** The {@code now} argument: empty for Redis TIME (production), the injected time in tests. */
    private Object nowArg() {
        return clock.isServer() ? EMPTY : clock.arg();
    }

    /** Doubles packed little-endian, as the scripts unpack them ({@code struct.unpack('<d...')}). */
    private static byte[] pack(double... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double d : v) {
            b.putDouble(d);
        }
        return b.array();
    }

    private static double flagOf(boolean b) {
        return b ? 1 : 0;
    }

    /** the admit script's limits argument. */
    private byte[] admitLimits(AdmitRequest r) {
        LeafLimit l = r.leafLimit();
        BreakerLimit b = r.breaker();
        BucketLimit a = r.accountLimit();
        SlotRequest slot = r.slot();
        return pack(r.permits(), l.ceilingRps(), l.burst(), l.floorRps(), flagOf(l.adaptive()),
                flagOf(b != null), b == null ? 0 : b.threshold(), b == null ? 0 : b.cooldownNanos(),
                b == null ? 0 : b.maxCooldownNanos(), b == null ? 0 : b.probeLeaseNanos(),
                flagOf(a != null), a == null ? 0 : a.rateRps(), a == null ? 0 : a.burst(),
                flagOf(slot != null), slot == null ? 0 : slot.maxConcurrency(), slot == null ? 0 : slot.leaseNanos());
    }

    /** The TTL of a bulkhead's key: the learned TTL, or longer than one lease (cloudg.lua's slot_keep). */
    private byte[] bulkheadTtl(SlotRequest slot) {
        long ms = Long.parseLong(ttlMs);
        if (slot != null) {
            ms = Math.max(ms, (long) Math.ceil(slot.leaseNanos() / 1e6) + 1000);
        }
        return bytes(Long.toString(ms));
    }

    /** the record script's limits argument. */
    private byte[] recordLimits(LeafLimit l, BreakerLimit b) {
        return pack(l.ceilingRps(), l.burst(), l.floorRps(), flagOf(l.adaptive()),
                flagOf(b != null), b == null ? 0 : b.threshold(), b == null ? 0 : b.cooldownNanos(),
                b == null ? 0 : b.maxCooldownNanos(), b == null ? 0 : b.probeLeaseNanos());
    }

    /** Encoded arguments and what they were encoded from. */
    private record Encoded(Object from, Object from2, byte[] bytes, byte[] bytes2) {
        boolean matches(Object a, Object b) {
            return (from == a || from.equals(a)) && (from2 == b || java.util.Objects.equals(from2, b));
        }
    }

    /**
     * What the scripts need of one leaf, encoded once: its keys and scope texts, and the limits arguments
     * last used with it (a call plan passes the same limits objects every time, so they are re-encoded only
     * when the configuration changes).
     */
    /**
     * An account's index as this store registered it: when it last did (on the governor's {@link TimeSource}:
     * only the cadence of re-registering, never state; 0 before the first).
     */
    private static final class Registration {
        final byte[] index;
        volatile long at;
        volatile boolean done;
        /** {@link #registryEpoch()} when it was made. */
        volatile long epoch;

        Registration(byte[] index) {
            this.index = index;
        }
    }

    /**
     * Registers {@code p}'s account in the estate's registry on this store's first admission in it, again
     * every half TTL, and again after Redis may have lost it (an outage, a server that lost its scripts): what
     * {@link #troubled()} reads instead of the whole key set.
     */
    private void registered(PreparedLeaf p) {
        Registration reg = p.registration;
        long now = time.nanoTime();
        long epoch = registryEpoch();
        if (reg.done && reg.epoch == epoch && now - reg.at < reregisterNanos) {
            return;
        }
        try {
            await(runner.call(Script.REGISTER, new Object[] {registryKey}, nowArg(), reg.index, ttlBytes),
                    "admit (registering the account)");
        } catch (io.cloudg.resilience.spi.StateStoreUnavailableException e) {
            // the admission itself went through (its token and slot are taken): it stands, and the next
            // admission in the account registers it (the outage bumped the epoch)
            return;
        }
        reg.at = now;
        reg.epoch = epoch;
        reg.done = true;
    }

    private final class PreparedLeaf {
        final Registration registration;
        final byte[] leaf;
        final byte[] account;
        final byte[] bulkhead;
        final byte[] leafText;
        final byte[] accountText;
        final Scope accountScope;
        volatile Encoded admitWithSlot;
        volatile Encoded admitNoSlot;
        volatile Encoded record;
        /**
         * Bumped whenever this store queues an outcome of this leaf that may leave it unsteady (anything but a
         * plain success with the limits of the last steady answer, see {@link #recordAsync}): a steady
         * admission seen before it no longer vouches for the leaf.
         */
        final AtomicLong epoch = new AtomicLong();
        /** What the last admission of this leaf answered about it: steady, or null. */
        volatile Steady steady;

        PreparedLeaf(Scope leafScope) {
            Scope a = leafScope.accountScope();
            this.accountScope = a;
            this.registration = registrations.computeIfAbsent(a, x -> new Registration(bytes(keys.troubled(x))));
            this.leaf = bytes(keys.leaf(leafScope));
            this.account = bytes(keys.account(a));
            this.bulkhead = bytes(keys.bulkhead(a));
            this.leafText = bytes(text(leafScope));
            this.accountText = bytes(text(a));
        }

        /** the admit script's limits and bulkhead TTL arguments for {@code r}. */
        Encoded admitArgs(AdmitRequest r) {
            boolean withSlot = r.slot() != null;
            Encoded e = withSlot ? admitWithSlot : admitNoSlot;
            if (e != null && e.matches(r, null)) {
                return e;
            }
            e = new Encoded(r, null, RedisStateStore.this.admitLimits(r), bulkheadTtl(r.slot()));
            if (withSlot) {
                admitWithSlot = e;
            } else {
                admitNoSlot = e;
            }
            return e;
        }

        byte[] recordLimits(LeafLimit l, BreakerLimit b) {
            Encoded e = record;
            if (e != null && e.matches(l, b)) {
                return e.bytes;
            }
            e = new Encoded(l, b, RedisStateStore.this.recordLimits(l, b), null);
            record = e;
            return e.bytes;
        }
    }

    /**
     * An admission found the leaf steady (at its configured ceiling, breaker closed without failures: where a
     * success changes nothing) with these limits, when the leaf's {@link PreparedLeaf#epoch} was {@code epoch}.
     */
    private record Steady(long epoch, LeafLimit leaf, BreakerLimit breaker) {
        boolean vouchesFor(OutcomeRequest r, long currentEpoch) {
            return epoch == currentEpoch && sameLimits(r);
        }

        boolean sameLimits(OutcomeRequest r) {
            return (leaf == r.leafLimit() || leaf.equals(r.leafLimit()))
                    && (breaker == r.breaker() || Objects.equals(breaker, r.breaker()));
        }
    }

    private PreparedLeaf prepared(Scope leaf) {
        PreparedLeaf p = prepared.get(leaf);
        if (p == null) {
            if (prepared.size() >= 100_000) {
                prepared.clear(); // a bound, far above any estate's leaf count
            }
            p = prepared.computeIfAbsent(leaf, PreparedLeaf::new);
        }
        return p;
    }

    /** The scope text stored beside the state, for {@code cloudg ratelimit show}. */
    private static String text(Scope s) {
        return s.toString();
    }

    private static void requireSameSlot(Scope leaf, Scope account, String what) {
        if (account != null && !(Objects.equals(leaf.provider(), account.provider())
                && Objects.equals(leaf.account(), account.account()))) {
            throw new IllegalArgumentException(what + " " + account + " must belong to the leaf's account " + leaf);
        }
    }

    // ------------------------------------------------------------------ admission

    @Override
    public Admission admit(AdmitRequest r) {
        requireSameSlot(r.leaf(), r.accountLimit() == null ? null : r.account(), "account");
        SlotRequest slot = r.slot();
        if (slot != null) {
            requireSameSlot(r.leaf(), slot.bulkhead(), "bulkhead");
        }
        PreparedLeaf p = prepared(r.leaf());
        Encoded args = p.admitArgs(r);
        long epoch = p.epoch.get(); // before the admission is queued: outcomes queued after it bump it
        Object answer = await(runner.call(Script.ADMIT,
                new Object[] {p.leaf, p.account, p.bulkhead},
                nowArg(), args.bytes, p.leafText, p.accountText, ttlBytes, args.bytes2), "admit");
        registered(p); // after the admission: one that found the server had lost its scripts registers again
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
            List<Object> reply = list(answer);
            long kind = longOf(reply.get(0));
            if (kind == 2) {
                p.steady = null;
                return Admission.rejected(new BreakerDecision(BreakerDecision.Kind.REJECT, 0, longOf(reply.get(2))));
            }
            decision = kind == 1
                    ? new BreakerDecision(BreakerDecision.Kind.PROBE, longOf(reply.get(1)), 0) : BreakerDecision.PERMIT;
            wait = longOf(reply.get(3));
            leaseId = longOf(reply.get(4));
            steady = longOf(reply.get(5)) == 1;
        }
        p.steady = steady ? new Steady(epoch, r.leafLimit(), r.breaker()) : null;
        SlotLease lease = leaseId < 0 ? null : new SlotLease(slot.bulkhead(), leaseId);
        if (lease == null && slot != null && wait <= 0 && releases.hasPending(slot.bulkhead())) {
            // full, but this process still holds releases back: they go first, then the slot is tried again
            // (as the in-memory store, which has them already)
            lease = tryAcquireSlot(slot);
        }
        if (r.global() != null) {
            long globalWait = longOf(await(runner.call(Script.GLOBAL, new Object[] {keys.global(r.provider())},
                    nowArg(), pack(r.global().rateRps(), r.global().burst(), r.permits()), r.provider(), ttlMs),
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

    /** The record script's quota window argument: empty unless a throttle said something about a window. */
    private static byte[] window(OutcomeRequest r) {
        QuotaWindow w = r.window();
        if (r.outcome() != AttemptOutcome.THROTTLED || !w.known()) {
            return EMPTY;
        }
        return pack(w.resetNanos(), w.calls(), w.windowNanos());
    }

    /** Queues the record script for {@code r} (and a release elsewhere, if its lease is of another bulkhead). */
    private CompletableFuture<Object> queueRecord(OutcomeRequest r) {
        PreparedLeaf p = prepared(r.leaf());
        Steady st = p.steady;
        if (!(plainSuccess(r) && st != null && st.sameLimits(r))) {
            // a plain success never leaves a steady leaf unsteady (Leaves.onSuccess keeps it or steps towards
            // the ceiling, Breakers.onCallEnd keeps or clears the failures), so it voids no steady answer:
            // else many callers of one leaf would void each other's answers and every success would run
            p.epoch.incrementAndGet();
        }
        SlotLease release = r.release();
        boolean releaseHere = release != null && release.bulkhead().equals(p.accountScope);
        CompletableFuture<Object> f = runner.call(Script.RECORD, new Object[] {p.leaf, p.bulkhead},
                nowArg(), p.recordLimits(r.leafLimit(), r.breaker()),
                r.outcome() == AttemptOutcome.SUCCESS ? SUCCESS : r.outcome() == AttemptOutcome.THROTTLED ? THROTTLED : OTHER,
                VERDICTS[r.verdict().ordinal()], number(r.retryAfterNanos()), number(r.probeGeneration()),
                releaseHere ? number(release.id()) : EMPTY, p.leafText, ttlBytes, window(r));
        if (release != null && !releaseHere) {
            CompletableFuture<Object> other = slotsAsync("release", release.bulkhead(), s(release.id()), 0);
            return f.thenCombine(other, (a, b) -> a);
        }
        return f;
    }

    @Override
    public OutcomeResult record(OutcomeRequest r) {
        List<Object> reply = list(await(queueRecord(r), "record"));
        BreakerState.Phase phase = BreakerState.Phase.values()[(int) longOf(reply.get(2))];
        Object rate = reply.get(1); // -1: the configured ceiling
        return new OutcomeResult(longOf(reply.get(0)) == 1,
                rate instanceof Long && (Long) rate == -1 ? r.leafLimit().ceilingRps() : doubleOf(rate), phase,
                longOf(reply.get(3)) == 1);
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
     * exceptions ({@link io.cloudg.resilience.spi.StateStoreUnavailableException} when Redis cannot be
     * reached); other failures (a script error, state in an unknown format) are also logged, since no
     * caller waits for them.
     *
     * <p><b>Plain successes.</b> A success (verdict SUCCESS or NONE, not a probe's) of a leaf whose last
     * admission in this store answered <em>steady</em> (cloudg.lua's admit: the leaf at its configured
     * ceiling, its breaker closed without failures, with the limits this outcome carries), and of which this
     * store has queued no outcome since but such plain successes (they cannot leave a steady leaf unsteady),
     * changes nothing in Redis but the slot: no script runs for it,
     * and its release is deferred ({@link DeferredReleases}) and sent with others of the same bulkhead in one
     * HDEL. In this process the result is the in-memory store's, outcome for outcome (any other outcome of
     * the leaf voids the steady answer; a slot operation or a full admission sends the deferred releases of
     * its bulkhead first). Across a fleet, such a success counts as of its admission: a failure another
     * worker recorded on the leaf meanwhile is not reset by it (the next success admitted after that failure
     * resets it).
     */
    @Override
    public CompletionStage<Void> recordAsync(OutcomeRequest r) {
        if (plainSuccess(r)) {
            PreparedLeaf p = prepared(r.leaf());
            Steady st = p.steady;
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
            RuntimeException t = RedisErrors.translate(e, "record", where);
            if (!(t instanceof io.cloudg.resilience.spi.StateStoreUnavailableException)) {
                DegradingStateStore.LOG.error("Governor outcome for {} was not recorded at {}: {}", r.leaf(), where,
                        t.getMessage());
            }
            throw t;
        });
    }

    // ------------------------------------------------------------------ bulkheads

    private CompletableFuture<Object> slotsAsync(String op, Scope bulkhead, String idOrMax, long leaseNanos) {
        return runner.call(Script.SLOTS, new Object[] {keys.bulkhead(bulkhead)},
                op, clock.arg(), idOrMax, s(leaseNanos), ttlMs, text(bulkhead));
    }

    private Object slots(String op, Scope bulkhead, String idOrMax, long leaseNanos) {
        return await(slotsAsync(op, bulkhead, idOrMax, leaseNanos), "bulkhead " + op);
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        releases.flush(request.bulkhead());
        long id = longOf(slots("acquire", request.bulkhead(), Integer.toString(request.maxConcurrency()),
                request.leaseNanos()));
        return id < 0 ? null : new SlotLease(request.bulkhead(), id);
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        releases.flush(lease.bulkhead());
        slots("release", lease.bulkhead(), s(lease.id()), 0);
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        releases.flush(lease.bulkhead());
        return longOf(slots("renew", lease.bulkhead(), s(lease.id()), leaseNanos)) == 1;
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        releases.flush(bulkhead);
        return (int) longOf(slots("count", bulkhead, "0", 0));
    }

    // ------------------------------------------------------------------ retry budget

    /**
     * Refunds of one provider, counted locally and written {@link #REFUNDS_PER_FLUSH} at a time (one
     * asynchronous script per 10 successes instead of one per success), and with every take or read.
     * Drift: the shared balance lags by at most 9 refunds (0.9 token) per worker and provider, plus a
     * flush that failed while Redis was unreachable (those refunds are kept and sent with the next one).
     */
    private final class BatchedRefunds {
        final String provider;
        /** The budget key and the provider, encoded once (a String argument costs Redisson a buffer). */
        final byte[] key;
        final byte[] providerBytes;
        final AtomicInteger pending = new AtomicInteger();
        volatile CompletableFuture<Object> lastFlush = CompletableFuture.completedFuture(null);

        BatchedRefunds(String provider) {
            this.provider = provider;
            this.key = bytes(keys.budget(provider));
            this.providerBytes = bytes(provider);
        }

        void refund(int size) {
            if (pending.incrementAndGet() >= REFUNDS_PER_FLUSH) {
                synchronized (this) {
                    int n = pending.getAndSet(0);
                    if (n > 0) {
                        lastFlush = budget("peek", size, n).whenComplete((v, e) -> {
                            if (e != null) {
                                pending.addAndGet(n);
                            }
                        });
                    }
                }
            }
        }

        List<Object> apply(String op, int size) {
            try {
                lastFlush.get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // its refunds went back to pending; they go out with this call
            }
            int n = pending.getAndSet(0);
            try {
                return list(await(budget(op, size, n), "retry budget " + op));
            } catch (RuntimeException e) {
                pending.addAndGet(n);
                throw e;
            }
        }

        private CompletableFuture<Object> budget(String op, int size, int n) {
            return runner.call(Script.BUDGET, new Object[] {key}, bytes(op), number(size), number(n), ttlBytes,
                    providerBytes);
        }
    }

    private BatchedRefunds refunds(String provider) {
        return refunds.computeIfAbsent(provider, BatchedRefunds::new);
    }

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        return longOf(refunds(provider).apply("take", size).get(0)) == 1;
    }

    @Override
    public void refundRetry(String provider, int size) {
        refunds(provider).refund(size);
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        return doubleOf(refunds(provider).apply("peek", size).get(1)) / 1000.0;
    }

    // ------------------------------------------------------------------ snapshot, clear

    /** Server time in nanoseconds (or the injected test time). */
    long now() {
        if (!clock.isServer()) {
            return Long.parseLong(clock.arg());
        }
        Object t = await(client.getScript(StringCodec.INSTANCE).evalAsync(RScript.Mode.READ_ONLY,
                "local t = redis.call('TIME') return t[1] .. ' ' .. t[2]", RScript.ReturnType.VALUE)
                .toCompletableFuture(), "time");
        String[] p = ((String) t).split(" ");
        return Long.parseLong(p[0]) * 1_000_000_000L + Long.parseLong(p[1]) * 1000L;
    }

    /** Every key of this prefix (SCAN, never KEYS). */
    List<String> scan(String pattern) {
        try {
            List<String> out = new ArrayList<>();
            client.getKeys().getKeysStreamByPattern(pattern, 500).forEach(out::add);
            return out;
        } catch (RuntimeException e) {
            throw RedisErrors.translate(e, "scan", where);
        }
    }

    /** Hashes read per pipelined batch: a fleet's whole key set (hundreds of thousands of leaves) in one batch outlasts its response timeout. */
    static final int READ_BATCH = 1000;

    /** The hashes at {@code names}, read in pipelined batches of {@link #READ_BATCH}; refuses an unknown format. */
    List<Map<String, String>> readHashes(List<String> names) {
        List<Map<String, String>> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i += READ_BATCH) {
            out.addAll(readBatch(names.subList(i, Math.min(names.size(), i + READ_BATCH))));
        }
        return out;
    }

    /** The hashes at {@code names} in one pipelined batch ({@code HGETALL} each); refuses an unknown format. */
    private List<Map<String, String>> readBatch(List<String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        try {
            RBatch batch = client.createBatch(BatchOptions.defaults());
            List<CompletableFuture<Map<byte[], byte[]>>> fs = new ArrayList<>();
            for (String n : names) {
                RMapAsync<byte[], byte[]> m = batch.getMap(n, ByteArrayCodec.INSTANCE);
                fs.add(m.readAllMapAsync().toCompletableFuture());
            }
            batch.execute();
            List<Map<String, String>> out = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                out.add(known(fields(fs.get(i).join(), names.get(i)), names.get(i)));
            }
            return out;
        } catch (StateFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw RedisErrors.translate(e, "read", where);
        }
    }

    /** {@code h} as read from {@code key}, refused if it is in another format than this build's. */
    private Map<String, String> known(Map<String, String> h, String key) {
        String v = h.get("v");
        if (!h.isEmpty() && !"1".equals(v)) {
            throw new StateFormatException("Redis governor state at " + where + " is in an unknown format: key "
                    + key + " holds governor state format version " + (v == null ? "(none)" : v)
                    + ", but this cloudg reads only version 1. Use another ratelimit.redis.key_prefix or run"
                    + " `cloudg ratelimit reset`.");
        }
        return h;
    }

    /**
     * A leaf's hot fields, in the order cloudg.lua packs them into its field {@code h} (little-endian doubles,
     * NaN for an absent one); the times and counts among them are whole numbers.
     */
    private static final String[] HOT_FIELDS = {"tokens", "refilled_at", "rate", "ceiling", "x", "bx", "b_phase",
        "b_failures", "updated_at"};
    private static final java.util.Set<String> HOT_DECIMALS = java.util.Set.of("tokens", "rate", "ceiling");

    /**
     * A hash as read (bytes: a leaf's {@code h} is binary) as fields of text: a leaf's packed {@code h}
     * expanded into its hot fields, each as the text the other fields use (so every reader sees one layout).
     */
    static Map<String, String> fields(Map<byte[], byte[]> raw, String key) {
        Map<String, String> out = new java.util.HashMap<>(raw.size() + HOT_FIELDS.length);
        for (Map.Entry<byte[], byte[]> e : raw.entrySet()) {
            String field = new String(e.getKey(), StandardCharsets.UTF_8);
            if (field.equals("h")) {
                ByteBuffer b = ByteBuffer.wrap(e.getValue()).order(ByteOrder.LITTLE_ENDIAN);
                if (b.remaining() != HOT_FIELDS.length * Double.BYTES) {
                    throw new StateFormatException("Redis governor state is in an unknown format: the packed field h"
                            + " of key " + key + " must hold " + HOT_FIELDS.length * Double.BYTES + " bytes, but held "
                            + b.remaining());
                }
                for (String f : HOT_FIELDS) {
                    double d = b.getDouble();
                    if (!Double.isNaN(d)) {
                        out.put(f, HOT_DECIMALS.contains(f) ? Double.toString(d) : Long.toString((long) d));
                    }
                }
            } else {
                out.put(field, new String(e.getValue(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    static Long nanosField(Map<String, String> h, String f) {
        String v = h.get(f);
        if (v == null || v.equals("n")) {
            return null;
        }
        return (long) Double.parseDouble(v);
    }

    static Double numberField(Map<String, String> h, String f) {
        String v = h.get(f);
        return v == null || v.equals("n") ? null : Double.parseDouble(v);
    }

    @Override
    public StoreSnapshot snapshot() {
        releases.flushAll();
        long now = now();
        return views(scan(keys.leafPattern()), now);
    }

    /**
     * The troubled leaves from the accounts' indexes (cloudg.lua's {@code troubled_index}), found through the
     * estate's registry of accounts ({@link RedisKeys#registry()}); each account's index is checked against
     * its leaves, and pruned, in one script run ({@link Script#TROUBLED}), pipelined a batch at a time, and
     * only the leaves it answers are read whole. So the work is that of the accounts in use and of their
     * troubled leaves, not of the whole key set (1.2 million leaves at 1,000 accounts x 17 regions, nearly
     * all of them healthy), and nothing walks the key space.
     */
    @Override
    public StoreSnapshot troubled() {
        releases.flushAll();
        long now = now();
        List<String> troubled = new ArrayList<>();
        try {
            List<Object> indexes = list(await(runner.call(Script.REGISTERED, new Object[] {registryKey}, nowArg(),
                    ttlBytes), "read the registry of accounts"));
            List<CompletableFuture<Object>> reads = new ArrayList<>();
            for (Object index : indexes) {
                reads.add(runner.call(Script.TROUBLED, new Object[] {bytes(replyText(index))}, ttlBytes));
                if (reads.size() == READ_BATCH) {
                    collectTroubled(reads, troubled);
                }
            }
            collectTroubled(reads, troubled);
        } catch (StateFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw RedisErrors.translate(e, "read troubled leaves", where); // the store's own exceptions pass as they are
        }
        return views(troubled, now).troubled();
    }

    private static String replyText(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply.toString();
    }

    private void collectTroubled(List<CompletableFuture<Object>> reads, List<String> into) {
        for (CompletableFuture<Object> f : reads) {
            for (Object leaf : list(await(f, "read troubled leaves"))) {
                into.add(replyText(leaf));
            }
        }
        reads.clear();
    }

    private StoreSnapshot views(List<String> names, long now) {
        List<Map<String, String>> hashes = readHashes(names);
        List<LeafView> leaves = new ArrayList<>();
        List<BreakerView> breakers = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Map<String, String> h = hashes.get(i);
            Scope leaf = keys.parse(names.get(i)).map(RedisKeys.Parsed::scope).orElse(null);
            if (leaf == null || h.isEmpty()) {
                continue;
            }
            leafView(leaf, h, now).ifPresent(leaves::add);
            breakerView(leaf, h, now).ifPresent(breakers::add);
        }
        return new StoreSnapshot(leaves, breakers);
    }

    private static long nanosOrNever(Map<String, String> h, String f) {
        Long v = nanosField(h, f);
        return v == null ? io.cloudg.resilience.core.Time.NEVER : v;
    }

    /**
     * The stored bucket of {@code leaf} read back as the core type, or null if it has none (tests compare it,
     * bit for bit, with the in-memory store's).
     */
    LeafState leafState(Scope leaf) {
        Map<String, String> h = readHashes(List.of(keys.leaf(leaf))).get(0);
        Double tokens = numberField(h, "tokens");
        if (tokens == null) {
            return null;
        }
        Double throttles = numberField(h, "throttles");
        Double windowRate = numberField(h, "window_rate");
        return new LeafState(tokens, nanosOrNever(h, "refilled_at"), numberField(h, "rate"),
                numberField(h, "ceiling"), nanosOrNever(h, "paused_until"), nanosOrNever(h, "last_decrease"),
                nanosOrNever(h, "last_throttle"), nanosOrNever(h, "last_increase"),
                throttles == null ? 0 : throttles.longValue(), windowRate == null ? 0 : windowRate);
    }

    /** The stored breaker of {@code leaf} read back as the core type, or null if it has none. */
    BreakerState breakerState(Scope leaf) {
        Map<String, String> h = readHashes(List.of(keys.leaf(leaf))).get(0);
        Double phase = numberField(h, "b_phase");
        if (phase == null) {
            return null;
        }
        return new BreakerState(BreakerState.Phase.values()[phase.intValue()], numberField(h, "b_failures").intValue(),
                nanosOrNever(h, "b_opened_at"), nanosOrNever(h, "b_cooldown"), nanosOrNever(h, "b_probe_until"),
                numberField(h, "b_probe_gen").longValue(), numberField(h, "b_trips").longValue());
    }

    /** The stored account bucket of {@code account} read back as the core type, or null if it has none. */
    BucketState accountBucketState(Scope account) {
        Map<String, String> h = readHashes(List.of(keys.account(account))).get(0);
        Double tokens = numberField(h, "tokens");
        return tokens == null ? null : new BucketState(tokens, nanosOrNever(h, "refilled_at"));
    }

    static java.util.Optional<LeafView> leafView(Scope leaf, Map<String, String> h, long now) {
        Double rate = numberField(h, "rate");
        if (rate == null) {
            return java.util.Optional.empty();
        }
        Long paused = nanosField(h, "paused_until");
        Double throttles = numberField(h, "throttles");
        return java.util.Optional.of(new LeafView(leaf, rate, numberField(h, "ceiling"),
                throttles == null ? 0 : throttles.longValue(), paused == null ? 0 : Math.max(0, paused - now)));
    }

    static java.util.Optional<BreakerView> breakerView(Scope leaf, Map<String, String> h, long now) {
        Double phase = numberField(h, "b_phase");
        if (phase == null) {
            return java.util.Optional.empty();
        }
        BreakerState.Phase p = BreakerState.Phase.values()[phase.intValue()];
        long cooldown = nanosField(h, "b_cooldown");
        Long opened = nanosField(h, "b_opened_at");
        Long probeUntil = nanosField(h, "b_probe_until");
        long retryIn = p == BreakerState.Phase.OPEN ? Math.max(0, opened + cooldown - now)
                : p == BreakerState.Phase.HALF_OPEN ? Math.max(0, probeUntil - now) : 0;
        return java.util.Optional.of(new BreakerView(leaf, p, numberField(h, "b_failures").intValue(), cooldown, retryIn,
                numberField(h, "b_trips").longValue()));
    }

    /** Deletes the given keys in chunks; returns how many existed. */
    long delete(List<String> names) {
        long n = 0;
        try {
            for (int i = 0; i < names.size(); i += 500) {
                n += client.getKeys().delete(names.subList(i, Math.min(names.size(), i + 500)).toArray(new String[0]));
            }
        } catch (RuntimeException e) {
            throw RedisErrors.translate(e, "delete", where);
        }
        return n;
    }

    @Override
    public void clear() {
        releases.discard();
        delete(scan(keys.scanPattern()));
        refunds.clear();
        prepared.clear();
        registrations.clear();
    }

    /** Whether Redis answers now on the connection the scripts use (the degraded wrapper's probe). */
    public boolean ping() {
        return pingFailure() == null;
    }

    /** Null when Redis answers PING now on the connection the scripts use, else what went wrong. */
    public Throwable pingFailure() {
        try {
            Object r = runner.ping(pingKey).get(timeoutMs, TimeUnit.MILLISECONDS);
            return "PONG".equals(r) ? null : new IllegalStateException("PING answered " + r);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause() == null ? e : e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    @Override
    public String describe() {
        return where;
    }

    @Override
    public void close() {
        try {
            releases.flushAll().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // unsent: those leases expire on their own
        }
        releases.close();
        runner.close();
        if (ownsClient) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** Builds a {@link RedisStateStore}. */
    public static final class Builder {
        private final RedissonClient client;
        private boolean ownsClient;
        private String keyPrefix = "cloudg";
        private Duration learnedTtl = Duration.ofHours(24);
        private StoreClock clock = StoreClock.server();
        private TimeSource time;
        private int pipelineMaxBatch = 64;
        private int lanesPerNode = 2;
        private Duration callTimeout = Duration.ofSeconds(3);
        private Duration releaseDelay = DeferredReleases.DELAY;
        private String describe = "redis";

        private Builder(RedissonClient client) {
            this.client = client;
        }

        /** Close the client with the store. */
        public Builder ownsClient(boolean v) { ownsClient = v; return this; }
        public Builder keyPrefix(String v) { keyPrefix = v; return this; }
        /** How long unused learned state survives (refreshed on every use). */
        public Builder learnedTtl(Duration v) { learnedTtl = v; return this; }
        /** {@link StoreClock#server()} in production; an injected clock only in the contract suite. */
        public Builder clock(StoreClock v) { clock = Objects.requireNonNull(v); return this; }
        /**
         * The governor's clock, for this process's own timing (when to register an account again), never for
         * quota state; by default the injected clock's source, else {@link TimeSource#system()}.
         */
        public Builder time(TimeSource v) { time = Objects.requireNonNull(v, "time"); return this; }
        /** Most scripts per pipelined write; 1 writes each script on its own. */
        public Builder pipelineMaxBatch(int v) { pipelineMaxBatch = v; return this; }
        /**
         * Dedicated pipelined connections per Redis master (2); the scripts of one provider x account always
         * share one (their order is kept). More spread the client's encoding and decoding over more event
         * loops and keep Redis busy while one lane's replies are read.
         */
        public Builder lanesPerNode(int v) { lanesPerNode = v; return this; }
        /** The longest a caller waits for one reply before the store counts as unreachable. */
        public Builder callTimeout(Duration v) { callTimeout = v; return this; }
        /**
         * The longest a plain success's slot release is held back to go out with others (see
         * {@link #recordAsync}); zero sends each at once.
         */
        public Builder releaseDelay(Duration v) { releaseDelay = Objects.requireNonNull(v); return this; }
        /** The address for logs, without credentials. */
        public Builder describe(String v) { describe = v; return this; }

        public RedisStateStore build() {
            return new RedisStateStore(this);
        }
    }
}
