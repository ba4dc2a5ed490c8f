package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The keys and arguments of every entry point of {@code cloudg.lua}, in one place: for each entry point a class
 * whose {@code Keys} and {@code Argv} give the position of each key and argument by name (0-based, as in the
 * arrays {@link ScriptRunner#call} takes), whose other nested classes give the positions of the doubles of a
 * struct-packed argument, and whose methods build those arrays.
 *
 * <p>The Lua names the same things: each entry point's first lines are {@code local leaf_key, account_key =
 * K[1], K[2]} and {@code local injected_now, limits, ... = A[1], A[2], ...}, and it reads {@code KEYS} and
 * {@code ARGV} nowhere else; a packed argument is unpacked once into named locals. The names are these
 * constants' names in lower case. {@code ScriptArgsTest} parses {@code cloudg.lua} and fails the build unless
 * every layout here matches the script's name for name and position for position, every {@link Script} has
 * one, and {@code batch}'s per-call copies take as many keys and arguments as the layouts say.
 *
 * <p>Encoding: byte arrays go on the wire as they are; numbers as decimal text; the limits as little-endian
 * doubles ({@code struct.unpack('<d...')}), encoded once per limits object by the caller's cache.
 */
final class ScriptArgs {
    private ScriptArgs() {
    }

    static final byte[] EMPTY = new byte[0];
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

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code v} as decimal text. */
    static byte[] number(long v) {
        return v == -1 ? MINUS_ONE : v == 0 ? ZERO : bytes(Long.toString(v));
    }

    /** The {@code injected_now} argument: empty for Redis TIME (production), the injected time in tests. */
    static Object injectedNow(StoreClock clock) {
        return clock.isServer() ? EMPTY : clock.arg();
    }

    /** Doubles packed little-endian, as the scripts unpack them ({@code struct.unpack('<d...')}). */
    static byte[] pack(double[] v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double d : v) {
            b.putDouble(d);
        }
        return b.array();
    }

    private static double flag(boolean b) {
        return b ? 1 : 0;
    }

    /** {@code admit}: breaker, leaf, account bucket and bulkhead slot before an attempt. */
    static final class Admit {
        static final class Keys {
            static final int LEAF_KEY = 0;
            static final int ACCOUNT_KEY = 1;
            static final int BULKHEAD_KEY = 2;
            static final int COUNT = 3;
        }

        static final class Argv {
            /** Empty: Redis TIME; else the injected time (tests). */
            static final int INJECTED_NOW = 0;
            /** {@link Limits}, packed. */
            static final int LIMITS = 1;
            static final int LEAF_SCOPE = 2;
            static final int ACCOUNT_SCOPE = 3;
            /** The learned state's TTL in ms, as text. */
            static final int TTL = 4;
            /** The bulkhead key's TTL in ms, as text (the TTL, or longer than one lease). */
            static final int BULKHEAD_TTL = 5;
            static final int COUNT = 6;
        }

        /** The doubles of {@link Argv#LIMITS}; flags are 1 or 0, times in ns. */
        static final class Limits {
            static final int PERMITS = 0;
            static final int CEILING = 1;
            static final int BURST = 2;
            static final int FLOOR = 3;
            static final int ADAPTIVE = 4;
            static final int BREAKER_ON = 5;
            static final int THRESHOLD = 6;
            static final int COOLDOWN = 7;
            static final int MAX_COOLDOWN = 8;
            static final int PROBE_LEASE = 9;
            static final int ACCOUNT_ON = 10;
            static final int ACCOUNT_RATE = 11;
            static final int ACCOUNT_BURST = 12;
            static final int SLOT_ON = 13;
            static final int MAX_CONCURRENCY = 14;
            static final int LEASE_NS = 15;
            /** The part of the shared buckets and bulkhead this admission may spend ({@link Presence#refillShare}). */
            static final int REFILL_SHARE = 16;
            static final int COUNT = 17;
        }

        static Object[] keys(byte[] leafKey, byte[] accountKey, byte[] bulkheadKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.LEAF_KEY] = leafKey;
            k[Keys.ACCOUNT_KEY] = accountKey;
            k[Keys.BULKHEAD_KEY] = bulkheadKey;
            return k;
        }

        static Object[] argv(Object injectedNow, byte[] limits, byte[] leafScope, byte[] accountScope, byte[] ttl,
                             byte[] bulkheadTtl) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.LIMITS] = limits;
            a[Argv.LEAF_SCOPE] = leafScope;
            a[Argv.ACCOUNT_SCOPE] = accountScope;
            a[Argv.TTL] = ttl;
            a[Argv.BULKHEAD_TTL] = bulkheadTtl;
            return a;
        }

        static byte[] limits(AdmitRequest r, double refillShare) {
            LeafLimit l = r.leafLimit();
            BreakerLimit b = r.breaker();
            BucketLimit a = r.accountLimit();
            SlotRequest slot = r.slot();
            double[] d = new double[Limits.COUNT];
            d[Limits.PERMITS] = r.permits();
            d[Limits.CEILING] = l.ceilingRps();
            d[Limits.BURST] = l.burst();
            d[Limits.FLOOR] = l.floorRps();
            d[Limits.ADAPTIVE] = flag(l.adaptive());
            if (b != null) {
                d[Limits.BREAKER_ON] = 1;
                d[Limits.THRESHOLD] = b.threshold();
                d[Limits.COOLDOWN] = b.cooldownNanos();
                d[Limits.MAX_COOLDOWN] = b.maxCooldownNanos();
                d[Limits.PROBE_LEASE] = b.probeLeaseNanos();
            }
            if (a != null) {
                d[Limits.ACCOUNT_ON] = 1;
                d[Limits.ACCOUNT_RATE] = a.rateRps();
                d[Limits.ACCOUNT_BURST] = a.burst();
            }
            if (slot != null) {
                d[Limits.SLOT_ON] = 1;
                d[Limits.MAX_CONCURRENCY] = slot.maxConcurrency();
                d[Limits.LEASE_NS] = slot.leaseNanos();
            }
            d[Limits.REFILL_SHARE] = refillShare;
            return pack(d);
        }

        /** {@link Argv#BULKHEAD_TTL}: the learned TTL, or longer than one lease ({@code cloudg.lua}'s slot_keep). */
        static byte[] bulkheadTtl(long ttlMillis, SlotRequest slot) {
            long ms = ttlMillis;
            if (slot != null) {
                ms = Math.max(ms, (long) Math.ceil(slot.leaseNanos() / 1e6) + 1000);
            }
            return bytes(Long.toString(ms));
        }
    }

    /** {@code record}: AIMD, breaker verdict and slot release after an attempt. */
    static final class Record {
        static final class Keys {
            static final int LEAF_KEY = 0;
            static final int BULKHEAD_KEY = 1;
            static final int COUNT = 2;
        }

        static final class Argv {
            static final int INJECTED_NOW = 0;
            /** {@link Limits}, packed. */
            static final int LIMITS = 1;
            /** S (success), T (throttled) or O (other). */
            static final int OUTCOME = 2;
            /** A {@link CallVerdict} name. */
            static final int VERDICT = 3;
            /** ns, negative: none. */
            static final int RETRY_AFTER = 4;
            static final int PROBE_GENERATION = 5;
            /** The lease id to release, empty: none. */
            static final int RELEASE_LEASE = 6;
            static final int LEAF_SCOPE = 7;
            static final int TTL = 8;
            /** {@link Window}, packed; empty: the throttle said nothing about a window. */
            static final int WINDOW = 9;
            static final int COUNT = 10;
        }

        /** The doubles of {@link Argv#LIMITS}. */
        static final class Limits {
            static final int CEILING = 0;
            static final int BURST = 1;
            static final int FLOOR = 2;
            static final int ADAPTIVE = 3;
            static final int BREAKER_ON = 4;
            static final int THRESHOLD = 5;
            static final int COOLDOWN = 6;
            static final int MAX_COOLDOWN = 7;
            static final int PROBE_LEASE = 8;
            static final int COUNT = 9;
        }

        /** The doubles of {@link Argv#WINDOW} ({@link QuotaWindow}). */
        static final class Window {
            /** ns until the window resets, negative: not said. */
            static final int RESET = 0;
            /** Calls per window, 0: not said. */
            static final int CALLS = 1;
            /** The window's length in ns, 0: not said. */
            static final int LENGTH = 2;
            static final int COUNT = 3;
        }

        static Object[] keys(byte[] leafKey, byte[] bulkheadKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.LEAF_KEY] = leafKey;
            k[Keys.BULKHEAD_KEY] = bulkheadKey;
            return k;
        }

        /** The arguments of {@code r}, given its encoded limits, its release (empty: none), its leaf's scope and the TTL. */
        static Object[] argv(Object injectedNow, byte[] limits, OutcomeRequest r, byte[] releaseLease, byte[] leafScope,
                             byte[] ttl) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.LIMITS] = limits;
            a[Argv.OUTCOME] = r.outcome() == AttemptOutcome.SUCCESS ? SUCCESS
                    : r.outcome() == AttemptOutcome.THROTTLED ? THROTTLED : OTHER;
            a[Argv.VERDICT] = VERDICTS[r.verdict().ordinal()];
            a[Argv.RETRY_AFTER] = number(r.retryAfterNanos());
            a[Argv.PROBE_GENERATION] = number(r.probeGeneration());
            a[Argv.RELEASE_LEASE] = releaseLease;
            a[Argv.LEAF_SCOPE] = leafScope;
            a[Argv.TTL] = ttl;
            a[Argv.WINDOW] = window(r);
            return a;
        }

        static byte[] limits(LeafLimit l, BreakerLimit b) {
            double[] d = new double[Limits.COUNT];
            d[Limits.CEILING] = l.ceilingRps();
            d[Limits.BURST] = l.burst();
            d[Limits.FLOOR] = l.floorRps();
            d[Limits.ADAPTIVE] = flag(l.adaptive());
            if (b != null) {
                d[Limits.BREAKER_ON] = 1;
                d[Limits.THRESHOLD] = b.threshold();
                d[Limits.COOLDOWN] = b.cooldownNanos();
                d[Limits.MAX_COOLDOWN] = b.maxCooldownNanos();
                d[Limits.PROBE_LEASE] = b.probeLeaseNanos();
            }
            return pack(d);
        }

        /** {@link Argv#WINDOW}: empty unless a throttle said something about a window. */
        static byte[] window(OutcomeRequest r) {
            QuotaWindow w = r.window();
            if (r.outcome() != AttemptOutcome.THROTTLED || !w.known()) {
                return EMPTY;
            }
            double[] d = new double[Window.COUNT];
            d[Window.RESET] = w.resetNanos();
            d[Window.CALLS] = w.calls();
            d[Window.LENGTH] = w.windowNanos();
            return pack(d);
        }
    }

    /** {@code slots}: the bulkhead's lease operations. */
    static final class Slots {
        static final class Keys {
            static final int BULKHEAD_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            /** acquire, release, renew or count. */
            static final int OP = 0;
            static final int INJECTED_NOW = 1;
            /** The lease id (release, renew) or the max concurrency (acquire). */
            static final int ID_OR_MAX = 2;
            static final int LEASE_NS = 3;
            static final int TTL = 4;
            static final int ACCOUNT_SCOPE = 5;
            static final int COUNT = 6;
        }

        static Object[] keys(String bulkheadKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.BULKHEAD_KEY] = bulkheadKey;
            return k;
        }

        static Object[] argv(String op, Object injectedNow, String idOrMax, long leaseNanos, String ttl,
                             String accountScope) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.OP] = op;
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.ID_OR_MAX] = idOrMax;
            a[Argv.LEASE_NS] = Long.toString(leaseNanos);
            a[Argv.TTL] = ttl;
            a[Argv.ACCOUNT_SCOPE] = accountScope;
            return a;
        }
    }

    /** {@code global}: the provider-wide bucket. */
    static final class Global {
        static final class Keys {
            static final int GLOBAL_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            static final int INJECTED_NOW = 0;
            /** {@link Limits}, packed. */
            static final int LIMITS = 1;
            static final int PROVIDER_SCOPE = 2;
            static final int TTL = 3;
            static final int COUNT = 4;
        }

        static final class Limits {
            static final int RATE = 0;
            static final int BURST = 1;
            static final int PERMITS = 2;
            static final int COUNT = 3;
        }

        static Object[] keys(String globalKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.GLOBAL_KEY] = globalKey;
            return k;
        }

        /** {@code refillShare}: as admit's ({@link Admit.Limits#REFILL_SHARE}), applied here to rate and burst. */
        static Object[] argv(Object injectedNow, BucketLimit limit, int permits, String providerScope, String ttl,
                             double refillShare) {
            double[] d = new double[Limits.COUNT];
            d[Limits.RATE] = limit.rateRps() * refillShare;
            d[Limits.BURST] = limit.burst() * refillShare;
            d[Limits.PERMITS] = permits;
            Object[] a = new Object[Argv.COUNT];
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.LIMITS] = pack(d);
            a[Argv.PROVIDER_SCOPE] = providerScope;
            a[Argv.TTL] = ttl;
            return a;
        }
    }

    /** {@code budget}: the provider's retry budget. */
    static final class Budget {
        static final class Keys {
            static final int BUDGET_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            /** take or peek. */
            static final int OP = 0;
            /** The budget's size in tokens. */
            static final int SIZE = 1;
            /** Refunds batched by the caller since its last write. */
            static final int REFUNDS = 2;
            static final int TTL = 3;
            static final int PROVIDER_SCOPE = 4;
            static final int COUNT = 5;
        }

        static Object[] keys(byte[] budgetKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.BUDGET_KEY] = budgetKey;
            return k;
        }

        static Object[] argv(byte[] op, int size, int refunds, byte[] ttl, byte[] providerScope) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.OP] = op;
            a[Argv.SIZE] = number(size);
            a[Argv.REFUNDS] = number(refunds);
            a[Argv.TTL] = ttl;
            a[Argv.PROVIDER_SCOPE] = providerScope;
            return a;
        }
    }

    /**
     * {@code batch}: several {@code admit}, {@code record} and {@code free} calls in one run. Its keys are the
     * calls' keys in order, its arguments {@link Argv#KINDS} and then the calls' arguments in order
     * ({@link ScriptRunner} assembles them).
     */
    static final class Batch {
        static final class Argv {
            /** One letter per call: {@link #ADMIT_KIND}, {@link #RECORD_KIND} or {@link #FREE_KIND}. */
            static final int KINDS = 0;
            static final int COUNT = 1;
        }

        static final byte ADMIT_KIND = 'A';
        static final byte RECORD_KIND = 'R';
        static final byte FREE_KIND = 'F';

        /** The letter of {@code script} in {@link Argv#KINDS}. */
        static byte kind(Script script) {
            return switch (script) {
                case ADMIT -> ADMIT_KIND;
                case RECORD -> RECORD_KIND;
                case FREE -> FREE_KIND;
                default -> throw new IllegalArgumentException(script + " does not run in a batch");
            };
        }
    }

    /** {@code free}: deferred slot releases of one bulkhead. */
    static final class Free {
        static final class Keys {
            static final int BULKHEAD_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            /** Lease ids separated by spaces. */
            static final int LEASE_IDS = 0;
            static final int COUNT = 1;
        }

        static Object[] keys(byte[] bulkheadKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.BULKHEAD_KEY] = bulkheadKey;
            return k;
        }

        static Object[] argv(byte[] leaseIds) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.LEASE_IDS] = leaseIds;
            return a;
        }
    }

    /** {@code troubled}: an account's troubled leaves, from its index. */
    static final class Troubled {
        static final class Keys {
            static final int INDEX_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            static final int TTL = 0;
            static final int COUNT = 1;
        }

        static Object[] keys(byte[] indexKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.INDEX_KEY] = indexKey;
            return k;
        }

        static Object[] argv(byte[] ttl) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.TTL] = ttl;
            return a;
        }
    }

    /** {@code register}: an account's index in the estate's registry. */
    static final class Register {
        static final class Keys {
            static final int REGISTRY_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            static final int INJECTED_NOW = 0;
            /** The key of the account's index of troubled leaves. */
            static final int ACCOUNT_INDEX = 1;
            static final int TTL = 2;
            static final int COUNT = 3;
        }

        static Object[] keys(byte[] registryKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.REGISTRY_KEY] = registryKey;
            return k;
        }

        static Object[] argv(Object injectedNow, byte[] accountIndex, byte[] ttl) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.ACCOUNT_INDEX] = accountIndex;
            a[Argv.TTL] = ttl;
            return a;
        }
    }

    /** {@code registered}: the registry's account indexes (the lapsed ones dropped). */
    static final class Registered {
        static final class Keys {
            static final int REGISTRY_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            static final int INJECTED_NOW = 0;
            static final int TTL = 1;
            static final int COUNT = 2;
        }

        static Object[] keys(byte[] registryKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.REGISTRY_KEY] = registryKey;
            return k;
        }

        static Object[] argv(Object injectedNow, byte[] ttl) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.TTL] = ttl;
            return a;
        }
    }

    static final class Member {
        static final class Keys {
            static final int PROCESSES_KEY = 0;
            static final int COUNT = 1;
        }

        static final class Argv {
            static final int INJECTED_NOW = 0;
            static final int PROCESS_ID = 1;
            /** How long a process stays live without saying so again, ms (text). */
            static final int LAPSE = 2;
            /** How long a silent process is presumed degraded before it is dropped, ms (text). */
            static final int FORGET = 3;
            /** {@code 1} to leave the set, else {@code 0}. */
            static final int LEAVING = 4;
            static final int COUNT = 5;
        }

        static Object[] keys(byte[] processesKey) {
            Object[] k = new Object[Keys.COUNT];
            k[Keys.PROCESSES_KEY] = processesKey;
            return k;
        }

        static Object[] argv(Object injectedNow, byte[] processId, byte[] lapse, byte[] forget, boolean leaving) {
            Object[] a = new Object[Argv.COUNT];
            a[Argv.INJECTED_NOW] = injectedNow;
            a[Argv.PROCESS_ID] = processId;
            a[Argv.LAPSE] = lapse;
            a[Argv.FORGET] = forget;
            a[Argv.LEAVING] = bytes(leaving ? "1" : "0");
            return a;
        }
    }
}
