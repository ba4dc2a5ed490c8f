package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.OutcomeRequest;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the hot path needs of one leaf, encoded once so that an admission or an outcome builds no string: its
 * keys and scope texts, the key arrays of its {@code admit} and {@code record} calls, and the limits arguments
 * last used with it (a call plan passes the same limits objects every time, so they are encoded again only when
 * the configuration changes). It also carries what the last admission answered about the leaf ({@link Steady})
 * and the epoch that voids that answer.
 */
final class PreparedLeaf {
    final Registrations.Registration registration;
    final byte[] leafText;
    final byte[] accountText;
    final Scope accountScope;
    /** The keys of this leaf's admit and record calls (the runner never changes them). */
    final Object[] admitKeys;
    final Object[] recordKeys;
    private final long ttlMillis;
    private volatile Encoded admitWithSlot;
    private volatile Encoded admitNoSlot;
    private volatile Encoded record;
    /**
     * Bumped whenever the store queues an outcome of this leaf that may leave it unsteady (anything but a plain
     * success with the limits of the last steady answer, see {@link HotPath#recordAsync}): a steady admission
     * seen before it no longer vouches for the leaf.
     */
    final AtomicLong epoch = new AtomicLong();
    /** What the last admission of this leaf answered about it: steady, or null. */
    volatile Steady steady;

    PreparedLeaf(Scope leafScope, RedisKeys keys, Registrations registrations, long ttlMillis) {
        Scope a = leafScope.accountScope();
        this.accountScope = a;
        this.registration = registrations.of(a);
        this.ttlMillis = ttlMillis;
        byte[] leaf = ScriptArgs.bytes(keys.leaf(leafScope));
        byte[] bulkhead = ScriptArgs.bytes(keys.bulkhead(a));
        this.leafText = ScriptArgs.bytes(leafScope.toString());
        this.accountText = ScriptArgs.bytes(a.toString());
        this.admitKeys = ScriptArgs.Admit.keys(leaf, ScriptArgs.bytes(keys.account(a)), bulkhead);
        this.recordKeys = ScriptArgs.Record.keys(leaf, bulkhead);
    }

    /** Encoded arguments and what they were encoded from. */
    record Encoded(Object from, Object from2, byte[] bytes, byte[] bytes2) {
        boolean matches(Object a, Object b) {
            return (from == a || from.equals(a)) && (from2 == b || Objects.equals(from2, b));
        }
    }

    /**
     * The admit script's limits ({@code bytes}) and bulkhead TTL ({@code bytes2}) arguments for {@code r} at
     * {@code share} (encoded again only when either changes: the share changes with the set of processes).
     */
    Encoded admitArgs(AdmitRequest r, Members.Share share) {
        boolean withSlot = r.slot() != null;
        Encoded e = withSlot ? admitWithSlot : admitNoSlot;
        if (e != null && e.matches(r, share)) {
            return e;
        }
        e = new Encoded(r, share, ScriptArgs.Admit.limits(r, share.value()),
                ScriptArgs.Admit.bulkheadTtl(ttlMillis, r.slot()));
        if (withSlot) {
            admitWithSlot = e;
        } else {
            admitNoSlot = e;
        }
        return e;
    }

    /** The record script's limits argument. */
    byte[] recordLimits(LeafLimit l, BreakerLimit b) {
        Encoded e = record;
        if (e != null && e.matches(l, b)) {
            return e.bytes;
        }
        e = new Encoded(l, b, ScriptArgs.Record.limits(l, b), null);
        record = e;
        return e.bytes;
    }

    /**
     * An admission found the leaf steady (at its configured ceiling, breaker closed without failures: where a
     * success changes nothing) with these limits, when the leaf's {@link #epoch} was {@code epoch}.
     */
    record Steady(long epoch, LeafLimit leaf, BreakerLimit breaker) {
        boolean vouchesFor(OutcomeRequest r, long currentEpoch) {
            return epoch == currentEpoch && sameLimits(r);
        }

        boolean sameLimits(OutcomeRequest r) {
            return (leaf == r.leafLimit() || leaf.equals(r.leafLimit()))
                    && (breaker == r.breaker() || Objects.equals(breaker, r.breaker()));
        }
    }
}
