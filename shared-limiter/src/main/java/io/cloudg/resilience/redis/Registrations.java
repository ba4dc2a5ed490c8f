package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.time.TimeSource;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * This store's part in the estate's registry of accounts ({@link RedisKeys#registry()}, a sorted set of the
 * accounts' indexes of troubled leaves, scored by Redis time), which {@link StateReader#troubled()} reads
 * instead of the whole key set.
 *
 * <p>An account is registered after this store's first admission in it, again every half TTL while the store
 * keeps using it (so the registry, which drops an entry 2 TTLs old, outlives the account's leaves, which
 * outlive their last write by at most 1.5), and again after Redis may have lost it ({@link
 * ScriptCalls#lossEpoch()}: an outage seen, a server that lost its scripts). The half-TTL cadence is measured
 * on the governor's {@link TimeSource}: it only decides when to say so again; the score, and every lapse, is
 * Redis time (or the injected time of the contract suite).
 */
final class Registrations {
    private final ScriptCalls calls;
    private final StoreClock clock;
    private final TimeSource time;
    private final RedisKeys keys;
    private final byte[] registryKey;
    private final byte[] ttl;
    /** How often a store says again that it uses an account: half the TTL. */
    private final long reregisterNanos;
    private final ConcurrentHashMap<Scope, Registration> byAccount = new ConcurrentHashMap<>();

    Registrations(ScriptCalls calls, StoreClock clock, TimeSource time, RedisKeys keys, long ttlMillis) {
        this.calls = calls;
        this.clock = clock;
        this.time = time;
        this.keys = keys;
        this.registryKey = ScriptArgs.bytes(keys.registry());
        this.ttl = ScriptArgs.bytes(Long.toString(ttlMillis));
        this.reregisterNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis) / 2;
    }

    /** An account's index as this store registers it: when it last did, on the governor's clock. */
    static final class Registration {
        final byte[] index;
        volatile long at;
        volatile boolean done;
        /** {@link ScriptCalls#lossEpoch()} when it was made. */
        volatile long epoch;

        Registration(byte[] index) {
            this.index = index;
        }
    }

    /** The registration of {@code account} (made once; registered by {@link #admitted}). */
    Registration of(Scope account) {
        return byAccount.computeIfAbsent(account, a -> new Registration(ScriptArgs.bytes(keys.troubled(a))));
    }

    /**
     * After an admission in {@code reg}'s account: registers it unless this store did so less than half a TTL ago
     * and Redis cannot have lost it since. An unreachable Redis leaves it for the next admission (the outage
     * changed the epoch); the admission itself stands.
     */
    void admitted(Registration reg) {
        long now = time.nanoTime();
        long epoch = calls.lossEpoch();
        if (reg.done && reg.epoch == epoch && now - reg.at < reregisterNanos) {
            return;
        }
        try {
            calls.await(calls.call(Script.REGISTER, ScriptArgs.Register.keys(registryKey),
                    ScriptArgs.Register.argv(ScriptArgs.injectedNow(clock), reg.index, ttl)),
                    "admit (registering the account)");
        } catch (StateStoreUnavailableException e) {
            return;
        }
        reg.at = now;
        reg.epoch = epoch;
        reg.done = true;
    }

    /** The index keys the registry lists (it drops those 2 TTLs old first). */
    List<Object> indexes() {
        return ScriptCalls.list(calls.await(calls.call(Script.REGISTERED, ScriptArgs.Registered.keys(registryKey),
                ScriptArgs.Registered.argv(ScriptArgs.injectedNow(clock), ttl)), "read the registry of accounts"));
    }

    /** Forgets the registrations of {@code provider}'s accounts, whose keys change (its estate was told). */
    void forget(String provider) {
        byAccount.keySet().removeIf(a -> provider.equals(a.provider()));
    }

    /** Forgets every registration (the state was deleted). */
    void clear() {
        byAccount.clear();
    }
}
