package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.spi.BreakerView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What {@code cloudg ratelimit show [PREFIX]} and {@code cloudg ratelimit reset [PREFIX]} do. PREFIX is a
 * scope prefix ({@code aws}, {@code aws/123456789012}, {@code aws/123456789012/us-east-1/ec2}); empty or
 * null means everything under this key prefix. An account's state is kept per estate ({@link RedisKeys}):
 * an estate selector ({@code aws:123456789012@aws}, or its beginning: every estate it starts) narrows to the
 * accounts of the estates it names, {@link #NO_ESTATE} to the accounts' state kept without one (before estates,
 * or before discovery told it); null selects every estate and the provider-wide state. Keys are found with SCAN
 * (never KEYS).
 *
 * <pre>{@code
 * try (RedisRateLimitAdmin admin = RedisRateLimitAdmin.connect(config.redis())) {
 *     admin.show("aws/123456789012").forEach(System.out::println);
 *     long removed = admin.reset("aws/123456789012");
 * }
 * }</pre>
 */
public final class RedisRateLimitAdmin implements AutoCloseable {
    /** The estate selector of the accounts' state that names no estate. */
    public static final String NO_ESTATE = "none";

    private final RedisStateStore store;
    private final boolean ownsStore;

    public RedisRateLimitAdmin(RedisStateStore store) {
        this(store, false);
    }

    private RedisRateLimitAdmin(RedisStateStore store, boolean ownsStore) {
        this.store = store;
        this.ownsStore = ownsStore;
    }

    /** An admin on its own connection, from {@code ratelimit.redis} (secrets from the environment). */
    public static RedisRateLimitAdmin connect(RedisSettings s) {
        return connect(s, System::getenv);
    }

    /**
     * As {@link #connect(RedisSettings)}, reading secrets with {@code env}.
     *
     * @throws io.cloudg.resilience.spi.StateStoreUnavailableException when Redis cannot be used, naming why
     *         ({@link RedisPreflight})
     */
    public static RedisRateLimitAdmin connect(RedisSettings s, Function<String, String> env) {
        RedisPreflight.check(s, env);
        return new RedisRateLimitAdmin(StateStores.redisStore(s, RedisClients.create(s, env), true), true);
    }

    private record Entry(String key, RedisKeys.Parsed parsed) {
    }

    private List<Entry> entries(String estate, String scopePrefix) {
        String filter = scopePrefix == null ? "" : scopePrefix.trim();
        List<Entry> out = new ArrayList<>();
        for (String k : store.scan(store.keys().scanPattern())) {
            Optional<RedisKeys.Parsed> p = store.keys().parse(k);
            if (p.isEmpty() || !ofEstate(p.get(), estate)) {
                continue;
            }
            if (p.get().scope() == null) {
                if (filter.isEmpty()) {
                    out.add(new Entry(k, p.get())); // the prefix's registries (accounts, processes): only with everything
                }
            } else if (matches(p.get().scope(), filter)) {
                out.add(new Entry(k, p.get()));
            }
        }
        return out;
    }

    /** Whether {@code p} is of the estates {@code estate} selects (null: every key). */
    static boolean ofEstate(RedisKeys.Parsed p, String estate) {
        if (estate == null) {
            return true;
        }
        boolean account = p.kind() == RedisKeys.Kind.LEAF || p.kind() == RedisKeys.Kind.ACCOUNT
                || p.kind() == RedisKeys.Kind.BULKHEAD || p.kind() == RedisKeys.Kind.TROUBLED;
        if (!account) {
            return false; // provider-wide state and the registries are no estate's
        }
        return NO_ESTATE.equals(estate) ? p.estate() == null : p.estate() != null && RedisKeys.selects(estate, p.estate());
    }

    /** A scope matches a prefix that is a whole-part prefix of its printed form. */
    static boolean matches(Scope scope, String prefix) {
        if (prefix.isEmpty()) {
            return true;
        }
        String s = scope.toString();
        String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return s.equals(p) || s.startsWith(p + "/");
    }

    /** The state under {@code scopePrefix}, of every estate, sorted by scope then kind. */
    public List<RateLimitRow> show(String scopePrefix) {
        return show(null, scopePrefix);
    }

    /**
     * The state under {@code scopePrefix} of the estates {@code estate} selects (null: all, and the provider-wide
     * state), sorted by estate (none first), scope, then kind.
     */
    public List<RateLimitRow> show(String estate, String scopePrefix) {
        List<Entry> entries = entries(estate, scopePrefix);
        long now = store.now();
        List<Entry> hashes = new ArrayList<>();
        List<RateLimitRow> rows = new ArrayList<>();
        for (Entry e : entries) {
            if (e.parsed.kind() == RedisKeys.Kind.TROUBLED || e.parsed.kind() == RedisKeys.Kind.REGISTRY
                    || e.parsed.kind() == RedisKeys.Kind.PROCESSES) {
                continue; // indexes of the state shown by its own rows, not state of their own (reset removes them)
            }
            if (e.parsed.kind() == RedisKeys.Kind.BULKHEAD) {
                rows.add(new RateLimitRow(e.parsed.scope(), e.parsed.kind(), null, null, 0, null,
                        (double) store.slotsInUse(e.key), 0, e.parsed.estate()));
            } else {
                hashes.add(e);
            }
        }
        List<Map<String, String>> values = store.readHashes(hashes.stream().map(Entry::key).toList());
        for (int i = 0; i < hashes.size(); i++) {
            Map<String, String> h = values.get(i);
            if (!h.isEmpty()) {
                rows.add(row(hashes.get(i).parsed, h, now));
            }
        }
        rows.sort(Comparator.comparing((RateLimitRow r) -> r.estate() == null ? "" : r.estate())
                .thenComparing(r -> r.scope().toString()).thenComparing(RateLimitRow::kind));
        return rows;
    }

    private static RateLimitRow row(RedisKeys.Parsed p, Map<String, String> h, long now) {
        Long updated = StateReader.nanosField(h, "updated_at");
        double age = updated == null ? 0 : Math.max(0, now - updated) / 1e9;
        switch (p.kind()) {
            case LEAF: {
                Double rate = StateReader.numberField(h, "rate");
                Double throttles = StateReader.numberField(h, "throttles");
                Optional<BreakerView> b = StateReader.breakerView(p.scope(), h, now);
                return new RateLimitRow(p.scope(), p.kind(), rate, StateReader.numberField(h, "ceiling"),
                        throttles == null ? 0 : throttles.longValue(), b.map(BreakerView::phase).orElse(null),
                        StateReader.numberField(h, "tokens"), age, p.estate());
            }
            case BUDGET: {
                Double millis = StateReader.numberField(h, "millis");
                return new RateLimitRow(p.scope(), p.kind(), null, null, 0, null,
                        millis == null ? null : millis / 1000.0, age, null);
            }
            default:
                return new RateLimitRow(p.scope(), p.kind(), null, null, 0, null,
                        StateReader.numberField(h, "tokens"), age, p.estate());
        }
    }

    /** Removes the state under {@code scopePrefix}, of every estate; returns how many keys were removed. */
    public long reset(String scopePrefix) {
        return reset(null, scopePrefix);
    }

    /** Removes the state under {@code scopePrefix} of the estates {@code estate} selects; returns how many keys were removed. */
    public long reset(String estate, String scopePrefix) {
        return store.delete(entries(estate, scopePrefix).stream().map(Entry::key).toList());
    }

    @Override
    public void close() {
        if (ownsStore) {
            store.close();
        }
    }
}
