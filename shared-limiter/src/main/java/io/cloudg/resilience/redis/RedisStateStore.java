package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.BucketState;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.EstateKeyed;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.time.TimeSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet-wide state store: every read-modify-write is one Lua script (see {@link Script}) that applies
 * the rules of {@code io.cloudg.resilience.core}, so a fleet of workers paces each quota as one process
 * would. Key layout: {@link RedisKeys}.
 *
 * <p>This class builds the parts and hands each call to its part:
 * <ul>
 *   <li>{@link HotPath}: admissions, outcomes and slot operations, a script run each ({@link PreparedLeaf}
 *       holds what a leaf's calls need, encoded once);</li>
 *   <li>{@link RetryRefunds}: the retry budgets, refunds batched 10 to a write;</li>
 *   <li>{@link Registrations}: the estate's registry of accounts, which {@link #troubled()} reads;</li>
 *   <li>{@link Members}: the estate's set of processes ({@link Presence}): the fleet a degraded process
 *       shares by, and the part of each shared bucket a healthy one spends while others are presumed degraded;</li>
 *   <li>{@link StateReader}: snapshots, troubled views, the stored state as core types;</li>
 *   <li>below them, {@link ScriptArgs} (every script's keys and arguments by name), {@link ScriptCalls}
 *       (a call, its timeout, its errors), {@link ScriptRunner} (pipelined lanes) and {@link
 *       DeferredReleases} (the slot releases of plain successes).</li>
 * </ul>
 *
 * <p>Time: the quota state's time is Redis {@code TIME}, read inside each script run ({@link
 * StoreClock#server()}; an injected clock exists only for the contract suite). This process's own timing (when
 * to register an account again) reads the governor's {@link TimeSource} ({@link Builder#time}). Learned state
 * (leaf rate, ceiling, throttles, breaker) lives in hashes whose TTL ({@code learned_ttl_hours}) is refreshed
 * as they are used, so it survives worker and (with AOF) Redis restarts. Every hash carries the format version;
 * another version is refused with a {@link StateFormatException}. An unreachable Redis throws
 * {@link io.cloudg.resilience.spi.StateStoreUnavailableException}.
 */
public final class RedisStateStore implements StateStore, EstateKeyed {
    /** Refunds batched locally per provider before they are written (10 refunds = 1 token). */
    static final int REFUNDS_PER_FLUSH = RetryRefunds.PER_FLUSH;
    /** Hashes read per pipelined batch. */
    static final int READ_BATCH = StateReader.READ_BATCH;
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.ratelimit");

    private final RedissonClient client;
    private final boolean ownsClient;
    private final RedisKeys keys;
    private final ScriptRunner runner;
    private final ScriptCalls calls;
    private final String where;
    private final byte[] pingKey;
    private final DeferredReleases releases;
    private final Registrations registrations;
    private final Members members;
    /** Keeps an idle store in the set of processes ({@link Members#idleBeat()}). */
    private final ScheduledExecutorService heartbeat;
    private final HotPath hot;
    private final RetryRefunds refunds;
    private final StateReader reader;
    /** The estate each provider's keys name ({@link #useEstate}); set once per provider. */
    private final ConcurrentHashMap<String, String> estates = new ConcurrentHashMap<>();
    /** What {@link #useEstate} found, by provider in the order told; guarded by {@code this}. */
    private final Map<String, EstateUse> uses = new LinkedHashMap<>();

    private RedisStateStore(Builder b) {
        this.client = Objects.requireNonNull(b.client, "client");
        this.ownsClient = b.ownsClient;
        this.keys = new RedisKeys(b.keyPrefix, estates::get);
        this.runner = new ScriptRunner(client, b.pipelineMaxBatch, b.lanesPerNode);
        long ttlMillis = Math.max(1000, b.learnedTtl.toMillis());
        this.pingKey = ("{" + b.keyPrefix + "}:ping").getBytes(StandardCharsets.UTF_8);
        this.where = b.describe + " prefix=" + b.keyPrefix;
        this.calls = new ScriptCalls(runner, b.callTimeout.toMillis(), where);
        this.releases = new DeferredReleases(runner, keys, b.releaseDelay);
        TimeSource time = b.time != null ? b.time : b.clock.timeSource().orElse(TimeSource.system());
        this.registrations = new Registrations(calls, b.clock, time, keys, ttlMillis);
        this.members = new Members(calls, b.clock, time, keys, b.presence, b.fleetSizeHint);
        this.hot = new HotPath(calls, keys, b.clock, registrations, releases, ttlMillis, members::share);
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloudg-redis-heartbeat");
            t.setDaemon(true);
            return t;
        });
        heartbeat.scheduleWithFixedDelay(members::idleBeat, Members.BEAT_NANOS / 2, Members.BEAT_NANOS / 2,
                TimeUnit.NANOSECONDS);
        this.refunds = new RetryRefunds(calls, keys, ttlMillis);
        this.reader = new StateReader(client, calls, keys, b.clock, registrations, ttlMillis);
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

    // ------------------------------------------------------------------ the governed call

    @Override
    public Admission admit(AdmitRequest r) {
        members.beat();
        try {
            Admission a = hot.admit(r);
            members.admitted(true);
            return a;
        } catch (StateStoreUnavailableException e) {
            members.admitted(false); // no idle beats until Redis answers an admission again: this process is missing
            throw e;
        }
    }

    @Override
    public OutcomeResult record(OutcomeRequest r) {
        return hot.record(r);
    }

    /** See {@link HotPath#recordAsync}: queued, not waited for; a plain success of a steady leaf runs no script. */
    @Override
    public CompletionStage<Void> recordAsync(OutcomeRequest r) {
        return hot.recordAsync(r);
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        return hot.tryAcquireSlot(request);
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        hot.releaseSlot(lease);
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        return hot.renewSlot(lease, leaseNanos);
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        return hot.slotsInUse(bulkhead);
    }

    /** The slots held in the bulkhead at {@code key}, whatever estate it names ({@code cloudg ratelimit show}). */
    int slotsInUse(String key) {
        return hot.slotsInUse(key, keys.parse(key).map(RedisKeys.Parsed::scope)
                .orElseThrow(() -> new IllegalArgumentException("not a bulkhead key of this prefix: " + key)));
    }

    // ------------------------------------------------------------------ retry budget

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        return refunds.tryTake(provider, size);
    }

    /** Counted here and written 10 at a time ({@link RetryRefunds}). */
    @Override
    public void refundRetry(String provider, int size) {
        refunds.refund(provider, size);
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        return refunds.remaining(provider, size);
    }

    // ------------------------------------------------------------------ estates

    /**
     * {@code provider}'s keys name {@code estate} from now on: its leaves, account buckets and bulkheads are the
     * estate's, as an earlier run of the estate left them (within {@code learned_ttl_hours}), apart from those of
     * another estate with the same account ids. Leaves used before (AWS's discovery) keep their keys without an
     * estate. Tell it before the provider's calls, or between them: a slot held across it is released to the key
     * it was taken under only if its release was deferred; otherwise it lapses with its lease. The first estate
     * told for a provider holds; another one is refused with a warning (as the state file's store does).
     *
     * @return how many of the estate's leaves run below their ceiling (what it learned, as the state file's store
     *         counts the leaves it restores); 0 when Redis cannot be read now (the store degrades meanwhile)
     */
    @Override
    public synchronized int useEstate(String provider, String estate) {
        if (provider == null || estate == null || estate.isBlank()) {
            throw new IllegalArgumentException("an estate must be named, but was " + estate + " for " + provider);
        }
        EstateUse before = uses.get(provider);
        if (before != null) {
            if (!before.estate().equals(estate)) {
                LOG.warn("{}: this process keeps the state of estate {} in {} already; that of {} is neither used nor "
                        + "kept", provider, before.estate(), where, estate);
            }
            return before.estate().equals(estate) ? before.restored() : 0;
        }
        try {
            releases.forget(provider).get(calls.timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // those releases are lost: their leases lapse, as a killed worker's do
        }
        estates.put(provider, estate);
        hot.forget(provider);
        registrations.forget(provider);
        int restored = 0;
        int unkept = 0;
        try {
            String shared = RedisKeys.shared(estate);
            restored = slowed(reader.troubled(p -> p.scope() != null && provider.equals(p.scope().provider())
                    && shared.equals(p.estate())));
            unkept = slowed(reader.troubled(p -> p.scope() != null && provider.equals(p.scope().provider())
                    && p.estate() == null));
        } catch (RuntimeException e) {
            LOG.debug("{}: cannot count the learned rates of estate {} in {} now", provider, estate, where, e);
        }
        uses.put(provider, new EstateUse(provider, estate, restored));
        if (restored > 0) {
            LOG.info("{}: {} learned rate(s) of estate {} in {}", provider, restored, estate, where);
        } else {
            LOG.debug("{}: no learned rate of estate {} in {}", provider, estate, where);
        }
        if (unkept > 0) {
            LOG.info("{}: {} learned rate(s) in {} name no estate (kept before cloudg keyed them by estate, or before "
                    + "discovery): no map of an estate starts from them, and they expire with learned_ttl_hours "
                    + "(cloudg ratelimit reset --estate none removes them now)", provider, unkept, where);
        }
        return restored;
    }

    private static int slowed(StoreSnapshot s) {
        return (int) s.leaves().stream().filter(io.cloudg.resilience.spi.LeafView::slowed).count();
    }

    @Override
    public synchronized List<EstateUse> uses() {
        return List.copyOf(uses.values());
    }

    @Override
    public Map<String, String> location() {
        return Map.of("redis", where);
    }

    // ------------------------------------------------------------------ reading the state

    @Override
    public StoreSnapshot snapshot() {
        releases.flushAll();
        return reader.snapshot();
    }

    /** The troubled leaves, from the accounts' indexes ({@link StateReader#troubled()}). */
    @Override
    public StoreSnapshot troubled() {
        releases.flushAll();
        return reader.troubled();
    }

    /** Server time in nanoseconds (or the injected test time). */
    long now() {
        return reader.now();
    }

    /** Every key matching {@code pattern} (SCAN, never KEYS). */
    List<String> scan(String pattern) {
        return reader.scan(pattern);
    }

    /** The hashes at {@code names} as fields of text; refuses an unknown format. */
    List<Map<String, String>> readHashes(List<String> names) {
        return reader.readHashes(names);
    }

    LeafState leafState(Scope leaf) {
        return reader.leafState(leaf);
    }

    BreakerState breakerState(Scope leaf) {
        return reader.breakerState(leaf);
    }

    BucketState accountBucketState(Scope account) {
        return reader.accountBucketState(account);
    }

    // ------------------------------------------------------------------ admin, lifecycle

    /** Deletes the given keys in chunks; returns how many existed. */
    long delete(List<String> names) {
        long n = 0;
        try {
            for (int i = 0; i < names.size(); i += 500) {
                n += client.getKeys().delete(names.subList(i, Math.min(names.size(), i + 500)).toArray(new String[0]));
            }
        } catch (RuntimeException e) {
            throw calls.translate(e, "delete");
        }
        return n;
    }

    @Override
    public void clear() {
        releases.discard();
        delete(scan(keys.scanPattern()));
        refunds.clear();
        hot.clear();
        registrations.clear();
    }

    /**
     * The processes sharing this store's prefix when Redis last said, live or presumed degraded ({@link
     * Presence}; this one included, once it has admitted a call or {@linkplain #announce() announced} itself); 0
     * before the first count. A degraded process divides every limit by at least this.
     */
    public int liveProcesses() {
        return members.live();
    }

    /**
     * Says this process is live now and returns how many are (see {@link #liveProcesses()}).
     *
     * @throws io.cloudg.resilience.spi.StateStoreUnavailableException when Redis does not answer
     */
    public int announce() {
        return members.announce();
    }

    /**
     * The part of every shared bucket this process spends now: 1, or less while other processes of the prefix are
     * presumed degraded ({@link Presence#refillShare}, as of the last heartbeat's reply).
     */
    public double refillShare() {
        return members.share().value();
    }

    /** Whether Redis answers now on the connection the scripts use (the degraded wrapper's probe). */
    public boolean ping() {
        return pingFailure() == null;
    }

    /** Null when Redis answers PING now on the connection the scripts use, else what went wrong. */
    public Throwable pingFailure() {
        try {
            Object r = runner.ping(pingKey).get(calls.timeoutMs(), TimeUnit.MILLISECONDS);
            return "PONG".equals(r) ? null : new IllegalStateException("PING answered " + r);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (ExecutionException e) {
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
        releases.flushAll(); // queued on the lanes: the drain below waits for them with the outcomes queued before
        releases.close();
        try {
            runner.drain().get(calls.timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // unanswered: Redis is gone or slow; those releases and outcomes are lost (leases expire on their own),
            // as a killed worker's are
        }
        heartbeat.shutdownNow();
        members.leave();
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
        private int fleetSizeHint = 1;
        private Presence.Policy presence = Presence.Policy.DEFAULT;

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

        /**
         * {@code fleet_size_hint}: the least fleet a degraded process divides every limit by, and so the least
         * divisor of the share a missing process is presumed to spend ({@link Presence#refillShare}).
         */
        public Builder fleetSizeHint(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("fleet size hint must be >= 1, but was " + v);
            }
            fleetSizeHint = v;
            return this;
        }
        /** When a silent process counts as missing, and as gone (tests shorten them). */
        Builder presence(Presence.Policy v) { presence = Objects.requireNonNull(v); return this; }

        public RedisStateStore build() {
            return new RedisStateStore(this);
        }
    }
}
