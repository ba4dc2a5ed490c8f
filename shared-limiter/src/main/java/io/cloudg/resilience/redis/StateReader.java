package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.BucketState;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Time;
import io.cloudg.resilience.spi.BreakerView;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.StoreSnapshot;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RMapAsync;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

/**
 * Reads the stored state back, never writing it: the views of {@code StateStore.snapshot()} (every leaf) and
 * {@code troubled()} (the leaves the accounts' indexes list), the core types the tests compare with the
 * in-memory store's, and the hashes {@code cloudg ratelimit show} prints.
 *
 * <p>Every hash is read as fields of text, one layout for every reader: a leaf's packed {@code h} is expanded
 * into its hot fields ({@link #HOT_FIELDS}, in {@code cloudg.lua}'s order, which {@code ScriptArgsTest}
 * checks), and a hash of another format version is refused with a {@link StateFormatException} naming its
 * key. Hashes go in pipelined batches of {@link #READ_BATCH} ({@code HGETALL} each); keys are found with
 * {@code SCAN}, never {@code KEYS}. The views' remaining times are against {@link #now()}: Redis {@code TIME}
 * (or the contract suite's injected time), the time the state was written in.
 */
final class StateReader {
    /** Hashes read per pipelined batch: a fleet's whole key set (hundreds of thousands of leaves) in one batch outlasts its response timeout. */
    static final int READ_BATCH = 1000;

    /**
     * A leaf's hot fields, in the order cloudg.lua packs them into its field {@code h} (little-endian doubles,
     * NaN for an absent one); the times and counts among them are whole numbers.
     */
    static final String[] HOT_FIELDS = {"tokens", "refilled_at", "rate", "ceiling", "x", "bx", "b_phase",
        "b_failures", "updated_at"};
    private static final Set<String> HOT_DECIMALS = Set.of("tokens", "rate", "ceiling");

    private final RedissonClient client;
    private final ScriptCalls calls;
    private final RedisKeys keys;
    private final StoreClock clock;
    private final Registrations registrations;
    private final byte[] ttl;

    StateReader(RedissonClient client, ScriptCalls calls, RedisKeys keys, StoreClock clock, Registrations registrations,
                long ttlMillis) {
        this.client = client;
        this.calls = calls;
        this.keys = keys;
        this.clock = clock;
        this.registrations = registrations;
        this.ttl = ScriptArgs.bytes(Long.toString(ttlMillis));
    }

    /**
     * Every leaf of this prefix this store uses now, of its providers' estates ({@link RedisKeys#current}; a SCAN
     * of the key space: for {@code ratelimit show} and the tests).
     */
    StoreSnapshot snapshot() {
        long now = now();
        return views(scan(keys.leafPattern()), now, keys::current);
    }

    /** {@link #troubled(Predicate)} of the accounts this store uses now ({@link RedisKeys#current}). */
    StoreSnapshot troubled() {
        return troubled(keys::current);
    }

    /**
     * The troubled leaves from the accounts' indexes (cloudg.lua's {@code troubled_index}), found through the
     * estate's registry of accounts ({@link Registrations}); each account's index is checked against its
     * leaves, and pruned, in one script run ({@link Script#TROUBLED}), pipelined a batch at a time, and only
     * the leaves it answers are read whole. So the work is that of the accounts in use and of their troubled
     * leaves, not of the whole key set (1.2 million leaves at 1,000 accounts x 17 regions, nearly all of them
     * healthy), and nothing walks the key space. Only the accounts whose index {@code accounts} takes are read
     * (an index key read back names its account and estate).
     */
    StoreSnapshot troubled(Predicate<RedisKeys.Parsed> accounts) {
        long now = now();
        List<String> troubled = new ArrayList<>();
        try {
            List<CompletableFuture<Object>> reads = new ArrayList<>();
            for (Object index : registrations.indexes()) {
                if (!keys.parse(ScriptCalls.text(index)).filter(accounts).isPresent()) {
                    continue;
                }
                reads.add(calls.call(Script.TROUBLED, ScriptArgs.Troubled.keys(ScriptArgs.bytes(ScriptCalls.text(index))),
                        ScriptArgs.Troubled.argv(ttl)));
                if (reads.size() == READ_BATCH) {
                    collectTroubled(reads, troubled);
                }
            }
            collectTroubled(reads, troubled);
        } catch (StateFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw calls.translate(e, "read troubled leaves"); // the store's own exceptions pass as they are
        }
        return views(troubled, now, accounts).troubled();
    }

    private void collectTroubled(List<CompletableFuture<Object>> reads, List<String> into) {
        for (CompletableFuture<Object> f : reads) {
            for (Object leaf : ScriptCalls.list(calls.await(f, "read troubled leaves"))) {
                into.add(ScriptCalls.text(leaf));
            }
        }
        reads.clear();
    }

    private StoreSnapshot views(List<String> names, long now, Predicate<RedisKeys.Parsed> taken) {
        // only the leaves taken are read (a SCAN finds every estate's)
        List<String> read = new ArrayList<>();
        List<Scope> scopes = new ArrayList<>();
        for (String name : names) {
            keys.parse(name).filter(taken).map(RedisKeys.Parsed::scope).ifPresent(leaf -> {
                read.add(name);
                scopes.add(leaf);
            });
        }
        List<Map<String, String>> hashes = readHashes(read);
        List<LeafView> leaves = new ArrayList<>();
        List<BreakerView> breakers = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            Map<String, String> h = hashes.get(i);
            if (h.isEmpty()) {
                continue;
            }
            leafView(scopes.get(i), h, now).ifPresent(leaves::add);
            breakerView(scopes.get(i), h, now).ifPresent(breakers::add);
        }
        return new StoreSnapshot(leaves, breakers);
    }

    /** Server time in nanoseconds (or the injected test time). */
    long now() {
        if (!clock.isServer()) {
            return Long.parseLong(clock.arg());
        }
        Object t = calls.await(client.getScript(StringCodec.INSTANCE).evalAsync(RScript.Mode.READ_ONLY,
                "local t = redis.call('TIME') return t[1] .. ' ' .. t[2]", RScript.ReturnType.VALUE)
                .toCompletableFuture(), "time");
        String[] p = ((String) t).split(" ");
        return Long.parseLong(p[0]) * 1_000_000_000L + Long.parseLong(p[1]) * 1000L;
    }

    /** Every key matching {@code pattern} (SCAN, never KEYS). */
    List<String> scan(String pattern) {
        try {
            List<String> out = new ArrayList<>();
            client.getKeys().getKeysStreamByPattern(pattern, 500).forEach(out::add);
            return out;
        } catch (RuntimeException e) {
            throw calls.translate(e, "scan");
        }
    }

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
            throw calls.translate(e, "read");
        }
    }

    /** {@code h} as read from {@code key}, refused if it is in another format than this build's. */
    private Map<String, String> known(Map<String, String> h, String key) {
        String v = h.get("v");
        if (!h.isEmpty() && !"1".equals(v)) {
            throw new StateFormatException("Redis governor state at " + calls.where() + " is in an unknown format: key "
                    + key + " holds governor state format version " + (v == null ? "(none)" : v)
                    + ", but this cloudg reads only version 1. Use another ratelimit.redis.key_prefix or run"
                    + " `cloudg ratelimit reset`.");
        }
        return h;
    }

    /**
     * A hash as read (bytes: a leaf's {@code h} is binary) as fields of text: a leaf's packed {@code h}
     * expanded into its hot fields, each as the text the other fields use (so every reader sees one layout).
     */
    static Map<String, String> fields(Map<byte[], byte[]> raw, String key) {
        Map<String, String> out = new HashMap<>(raw.size() + HOT_FIELDS.length);
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

    /** A time or count field; null when absent or "never" ({@code n}). */
    static Long nanosField(Map<String, String> h, String f) {
        String v = h.get(f);
        if (v == null || v.equals("n")) {
            return null;
        }
        return (long) Double.parseDouble(v);
    }

    /** A number field; null when absent or "never" ({@code n}). */
    static Double numberField(Map<String, String> h, String f) {
        String v = h.get(f);
        return v == null || v.equals("n") ? null : Double.parseDouble(v);
    }

    private static long nanosOrNever(Map<String, String> h, String f) {
        Long v = nanosField(h, f);
        return v == null ? Time.NEVER : v;
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

    /** A leaf's view (rate, ceiling, throttles, pause left at {@code now}); empty for a hash without a rate. */
    static Optional<LeafView> leafView(Scope leaf, Map<String, String> h, long now) {
        Double rate = numberField(h, "rate");
        if (rate == null) {
            return Optional.empty();
        }
        Long paused = nanosField(h, "paused_until");
        Double throttles = numberField(h, "throttles");
        return Optional.of(new LeafView(leaf, rate, numberField(h, "ceiling"),
                throttles == null ? 0 : throttles.longValue(), paused == null ? 0 : Math.max(0, paused - now)));
    }

    /** A leaf's breaker view (phase, failures, cooldown, retry-in at {@code now}); empty without a breaker. */
    static Optional<BreakerView> breakerView(Scope leaf, Map<String, String> h, long now) {
        Double phase = numberField(h, "b_phase");
        if (phase == null) {
            return Optional.empty();
        }
        BreakerState.Phase p = BreakerState.Phase.values()[phase.intValue()];
        long cooldown = nanosField(h, "b_cooldown");
        Long opened = nanosField(h, "b_opened_at");
        Long probeUntil = nanosField(h, "b_probe_until");
        long retryIn = p == BreakerState.Phase.OPEN ? Math.max(0, opened + cooldown - now)
                : p == BreakerState.Phase.HALF_OPEN ? Math.max(0, probeUntil - now) : 0;
        return Optional.of(new BreakerView(leaf, p, numberField(h, "b_failures").intValue(), cooldown, retryIn,
                numberField(h, "b_trips").longValue()));
    }
}
