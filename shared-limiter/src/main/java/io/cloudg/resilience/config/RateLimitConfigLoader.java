package io.cloudg.resilience.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * Binds a {@code ratelimit} YAML/JSON tree to {@link RateLimitConfig}. Table-driven: each known key has
 * a reader ({@link ConfigNode}'s typed getters) and a setter; a key nobody reads is logged ({@code Unknown
 * config key ratelimit.aws.max_rpss is ignored}) and skipped; a value of the wrong type fails with the key
 * and the value in the message. Range checks live in the config classes, so YAML and the Java builder
 * share them.
 */
final class RateLimitConfigLoader {
    private RateLimitConfigLoader() {
    }

    private record Key<B>(BiFunction<ConfigNode, String, Object> read, BiConsumer<B, Object> setter) {
        void apply(ConfigNode node, String key, B target) {
            Object v = read.apply(node, key);
            if (v != null) {
                setter.accept(target, v);
            }
        }
    }

    private static final Map<String, Key<ProviderLimits.Builder>> PROVIDER_KEYS = Map.ofEntries(
            Map.entry("enabled", bool((b, v) -> b.enabled(v))),
            Map.entry("adaptive", bool((b, v) -> b.adaptive(v))),
            Map.entry("per_operation", bool((b, v) -> b.perOperation(v))),
            Map.entry("max_rps", num((b, v) -> b.maxRps(v))),
            Map.entry("burst", num((b, v) -> b.burst(v))),
            Map.entry("account_max_rps", num((b, v) -> b.accountMaxRps(v))),
            Map.entry("account_burst", num((b, v) -> b.accountBurst(v))),
            Map.entry("global_max_rps", num((b, v) -> b.globalMaxRps(v))),
            Map.entry("global_burst", num((b, v) -> b.globalBurst(v))),
            Map.entry("max_concurrency", integer((b, v) -> b.maxConcurrency(v))),
            Map.entry("min_rps", num((b, v) -> b.minRps(v))),
            Map.entry("breaker_threshold", integer((b, v) -> b.breakerThreshold(v))),
            Map.entry("breaker_cooldown_seconds", num((b, v) -> b.breakerCooldownSeconds(v))),
            Map.entry("breaker_max_cooldown_seconds", num((b, v) -> b.breakerMaxCooldownSeconds(v))),
            Map.entry("breaker_probe_timeout_seconds", num((b, v) -> b.breakerProbeTimeoutSeconds(v))),
            Map.entry("slot_lease_seconds", num((b, v) -> b.slotLeaseSeconds(v))),
            Map.entry("retry_budget", integer((b, v) -> b.retryBudget(v))),
            Map.entry("max_retries", integer((b, v) -> b.maxRetries(v))),
            Map.entry("max_backoff_seconds", num((b, v) -> b.maxBackoffSeconds(v))),
            Map.entry("deadline_seconds", num((b, v) -> b.deadlineSeconds(v))));

    private static final Map<String, Key<RedisSettings.Builder>> REDIS_KEYS = Map.ofEntries(
            Map.entry("url", str((b, v) -> b.url(v))),
            Map.entry("mode", str((b, v) -> b.mode(v))),
            Map.entry("sentinel_master", str((b, v) -> b.sentinelMaster(v))),
            Map.entry("key_prefix", str((b, v) -> b.keyPrefix(v))),
            Map.entry("fleet_size_hint", integer((b, v) -> b.fleetSizeHint(v))),
            Map.entry("learned_ttl_hours", num((b, v) -> b.learnedTtlHours(v))),
            Map.entry("connect_timeout_ms", integer((b, v) -> b.connectTimeoutMs(v))),
            Map.entry("timeout_ms", integer((b, v) -> b.timeoutMs(v))),
            Map.entry("pool_size", integer((b, v) -> b.poolSize(v))),
            Map.entry("min_idle", integer((b, v) -> b.minIdle(v))),
            Map.entry("pipeline_max_batch", integer((b, v) -> b.pipelineMaxBatch(v))),
            Map.entry("probe_interval_seconds", num((b, v) -> b.probeIntervalSeconds(v))),
            Map.entry("degrade_after_seconds", num((b, v) -> b.degradeAfterSeconds(v))),
            Map.entry("presumed_degraded_seconds", num((b, v) -> b.presumedDegradedSeconds(v))),
            Map.entry("username", str((b, v) -> b.username(v))),
            Map.entry("password", str((b, v) -> b.password(v))),
            Map.entry("password_env", str((b, v) -> b.passwordEnv(v))),
            Map.entry("ca_file", str((b, v) -> b.caFile(v))),
            Map.entry("trust_store", str((b, v) -> b.trustStore(v))),
            Map.entry("trust_store_password_env", str((b, v) -> b.trustStorePasswordEnv(v))));

    static RateLimitConfig fromYaml(String yaml, List<String> warnings) {
        ConfigNode root = ConfigNode.root(ConfigNode.parse(yaml, "ratelimit"), warnings);
        return root.has("ratelimit") ? load(root.section("ratelimit")) : RateLimitConfig.defaults();
    }

    static RateLimitConfig load(JsonNode node, List<String> warnings) {
        ConfigNode n = ConfigNode.at("ratelimit", node, warnings);
        return n.isEmpty() ? RateLimitConfig.defaults() : load(n);
    }

    static RateLimitConfig load(ConfigNode node) {
        RateLimitConfig.Builder b = RateLimitConfig.builder();
        node.forEach((key, v) -> {
            if (key.equals("enabled")) {
                b.enabled(node.bool(key, null));
            } else if (key.equals("backend")) {
                b.backend(backend(node.key(key), node.string(key, null)));
            } else if (key.equals("redis")) {
                b.redis(loadRedis(node.section(key)));
            } else if (key.equals("state_file")) {
                b.stateFile(node.string(key, null));
            } else if (key.equals("learned_ttl_hours")) {
                b.learnedTtlHours(node.number(key, null));
            } else if (key.equals("max_calls_in_flight")) {
                b.maxCallsInFlight(node.integer(key, null, 1));
            } else if (RateLimitKeys.readElsewhere(key)) {
                // a key another module declared in this block (RateLimitKeys): that module reads and checks it
            } else if (RateLimitConfig.PROVIDERS.contains(key)) {
                ConfigNode provider = node.section(key);
                if (!provider.isEmpty()) {
                    b.provider(key, pb -> loadProvider(pb, provider));
                }
            } else {
                node.warn(ConfigErrors.unknownKey(node.key(key)));
            }
        });
        return b.build();
    }

    private static RateLimitConfig.Backend backend(String path, String v) {
        if (v == null) {
            return null;
        }
        switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "memory": return RateLimitConfig.Backend.MEMORY;
            case "redis": return RateLimitConfig.Backend.REDIS;
            default: throw ConfigErrors.mustBe(path, "memory or redis", v);
        }
    }

    private static RedisSettings loadRedis(ConfigNode node) {
        RedisSettings.Builder rb = RedisSettings.builder();
        readKnown(node, REDIS_KEYS, rb);
        return rb.build();
    }

    /** Azure throttles per subscription x resource provider; nothing can split its leaves further. */
    static final String AZURE_SCOPE = "has no effect: Azure throttles per subscription x resource provider, so its "
            + "rate-limit buckets stop at the resource provider";

    private static void loadProvider(ProviderLimits.Builder pb, ConfigNode node) {
        boolean azure = node.path().equals("ratelimit." + BuiltInRates.AZURE);
        if (azure && node.has("per_operation")) {
            node.warn(noEffect(node.key("per_operation")));
        }
        node.forEach((key, v) -> {
            if (key.equals("services")) {
                loadServices(pb, node, key);
            } else if (PROVIDER_KEYS.containsKey(key)) {
                PROVIDER_KEYS.get(key).apply(node, key, pb);
            } else if (RateLimitKeys.readElsewhere(RateLimitKeys.PROVIDER + "." + key)) {
                // the same, in a provider's block
            } else {
                node.warn(ConfigErrors.unknownKey(node.key(key)));
            }
        });
    }

    private static void loadServices(ProviderLimits.Builder pb, ConfigNode provider, String key) {
        JsonNode raw = provider.raw(key);
        if (raw != null && !raw.isObject()) {
            throw ConfigErrors.mustBe(provider.key(key), "a mapping of service names to {max_rps, burst, per_operation}",
                    ConfigNode.show(raw));
        }
        ConfigNode services = provider.section(key);
        services.forEach((name, entry) -> {
            if (entry == null || entry.isNull()) {
                return;
            }
            if (!entry.isObject()) {
                throw ConfigErrors.mustBe(services.key(name), "a mapping like {max_rps: 5, burst: 10}", ConfigNode.show(entry));
            }
            ConfigNode svc = services.section(name);
            svc.warnUnknown(java.util.Set.of("max_rps", "burst", "per_operation"));
            if (provider.path().equals("ratelimit." + BuiltInRates.AZURE)) {
                if (name.contains(".")) {
                    services.warn(noEffect(services.key(name)));
                }
                if (svc.has("per_operation")) {
                    services.warn(noEffect(svc.key("per_operation")));
                }
            }
            Boolean perOp = svc.bool("per_operation", false);
            pb.service(name, new ServiceLimit(svc.number("max_rps", null), svc.number("burst", null), perOp));
        });
    }

    private static String noEffect(String key) {
        String text = key + " " + AZURE_SCOPE;
        ConfigErrors.LOG.warn(text);
        return text;
    }

    /** Every key of the {@code ratelimit} section, as dotted paths ({@code <provider>}, {@code <service>} placeholders). */
    static java.util.SortedSet<String> documentedKeys() {
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        for (String k : List.of("enabled", "backend", "state_file", "learned_ttl_hours", "max_calls_in_flight")) {
            out.add("ratelimit." + k);
        }
        REDIS_KEYS.keySet().forEach(k -> out.add("ratelimit.redis." + k));
        PROVIDER_KEYS.keySet().forEach(k -> out.add("ratelimit.<provider>." + k));
        for (String k : List.of("max_rps", "burst", "per_operation")) {
            out.add("ratelimit.<provider>.services.<service>." + k);
        }
        return out;
    }

    private static <B> void readKnown(ConfigNode node, Map<String, Key<B>> keys, B target) {
        node.forEach((key, v) -> {
            Key<B> k = keys.get(key);
            if (k == null) {
                node.warn(ConfigErrors.unknownKey(node.key(key)));
            } else {
                k.apply(node, key, target);
            }
        });
    }

    private static <B> Key<B> num(BiConsumer<B, Double> setter) {
        return new Key<>((n, k) -> n.number(k, null), (b, v) -> setter.accept(b, (Double) v));
    }

    private static <B> Key<B> integer(BiConsumer<B, Integer> setter) {
        return new Key<>((n, k) -> n.integer(k, null), (b, v) -> setter.accept(b, (Integer) v));
    }

    private static <B> Key<B> str(BiConsumer<B, String> setter) {
        return new Key<>(RateLimitConfigLoader::text, (b, v) -> setter.accept(b, (String) v));
    }

    private static <B> Key<B> bool(BiConsumer<B, Boolean> setter) {
        return new Key<>((n, k) -> n.bool(k, null), (b, v) -> setter.accept(b, (Boolean) v));
    }

    /** Strings here are text as written: a number is refused (a password or URL typed as a number is a mistake). */
    private static String text(ConfigNode n, String k) {
        JsonNode v = n.raw(k);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw ConfigErrors.mustBe(n.key(k), "a string", ConfigNode.show(v));
        }
        return v.textValue();
    }
}
