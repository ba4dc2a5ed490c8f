package io.cloudg.resilience.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Binds a {@code ratelimit} YAML/JSON tree to {@link RateLimitConfig}. Table-driven: each known key has
 * a type and a setter; a key nobody reads is logged ({@code Unknown config key ratelimit.aws.max_rpss is
 * ignored}) and skipped; a value of the wrong type fails with the key and the value in the message. Range
 * checks live in the config classes, so YAML and the Java builder share them.
 */
final class RateLimitConfigLoader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RateLimitConfigLoader() {
    }

    private enum Kind { NUMBER, INTEGER, BOOLEAN, STRING }

    private record Key<B>(Kind kind, BiConsumer<B, Object> setter) {
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
            Map.entry("deadline_seconds", num((b, v) -> b.deadlineSeconds(v))),
            Map.entry("live_cooldown_seconds", integer((b, v) -> b.liveCooldownSeconds(v))));

    private static final Map<String, Key<LiveHolder>> LIVE_KEYS = Map.of(
            "live_max_concurrent", integer((h, v) -> h.live = h.live.withMaxConcurrent(v)),
            "live_max_concurrent_total", integer((h, v) -> h.live = h.live.withMaxConcurrentTotal(v)),
            "live_cooldown_seconds", integer((h, v) -> h.live = h.live.withCooldownSeconds(v)),
            "live_caller_max_operations", integer((h, v) -> h.live = h.live.withCallerMaxOperations(v)),
            "live_caller_window_seconds", integer((h, v) -> h.live = h.live.withCallerWindowSeconds(v)),
            "live_operation_timeout_seconds", integer((h, v) -> h.live = h.live.withOperationTimeoutSeconds(v)));

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
            Map.entry("username", str((b, v) -> b.username(v))),
            Map.entry("password", str((b, v) -> b.password(v))),
            Map.entry("password_env", str((b, v) -> b.passwordEnv(v))));

    private static final class LiveHolder {
        LiveLimits live = LiveLimits.DEFAULTS;
    }

    static RateLimitConfig fromYaml(String yaml, List<String> warnings) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml == null ? "" : yaml);
        } catch (JsonProcessingException e) {
            throw ConfigErrors.invalid("ratelimit", "the YAML could not be read: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return RateLimitConfig.defaults();
        }
        if (!root.isObject()) {
            throw ConfigErrors.mustBe("(config root)", "a mapping", root.toString());
        }
        return load(root.get("ratelimit"), warnings);
    }

    static RateLimitConfig load(JsonNode node, List<String> warnings) {
        RateLimitConfig.Builder b = RateLimitConfig.builder();
        if (node == null || node.isNull() || node.isMissingNode()) {
            return b.build();
        }
        if (!node.isObject()) {
            throw ConfigErrors.mustBe("ratelimit", "a mapping", text(node));
        }
        LiveHolder live = new LiveHolder();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode v = e.getValue();
            String path = "ratelimit." + key;
            if (key.equals("enabled")) {
                b.enabled((Boolean) convert(path, Kind.BOOLEAN, v));
            } else if (key.equals("backend")) {
                b.backend(backend(path, (String) convert(path, Kind.STRING, v)));
            } else if (key.equals("redis")) {
                b.redis(loadRedis(path, v, warnings));
            } else if (LIVE_KEYS.containsKey(key)) {
                apply(LIVE_KEYS.get(key), path, v, live);
            } else if (RateLimitConfig.PROVIDERS.contains(key)) {
                if (v == null || v.isNull()) {
                    continue;
                }
                if (!v.isObject()) {
                    throw ConfigErrors.mustBe(path, "a mapping", text(v));
                }
                b.provider(key, pb -> loadProvider(pb, path, v, warnings));
            } else {
                warnings.add(ConfigErrors.unknownKey(path));
            }
        }
        b.live(live.live);
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

    private static RedisSettings loadRedis(String path, JsonNode node, List<String> warnings) {
        RedisSettings.Builder rb = RedisSettings.builder();
        if (node == null || node.isNull()) {
            return rb.build();
        }
        if (!node.isObject()) {
            throw ConfigErrors.mustBe(path, "a mapping", text(node));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String keyPath = path + "." + e.getKey();
            Key<RedisSettings.Builder> k = REDIS_KEYS.get(e.getKey());
            if (k == null) {
                warnings.add(ConfigErrors.unknownKey(keyPath));
            } else {
                apply(k, keyPath, e.getValue(), rb);
            }
        }
        return rb.build();
    }

    private static void loadProvider(ProviderLimits.Builder pb, String path, JsonNode node, List<String> warnings) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            String keyPath = path + "." + key;
            if (key.equals("services")) {
                loadServices(pb, keyPath, e.getValue(), warnings);
            } else if (PROVIDER_KEYS.containsKey(key)) {
                apply(PROVIDER_KEYS.get(key), keyPath, e.getValue(), pb);
            } else {
                warnings.add(ConfigErrors.unknownKey(keyPath));
            }
        }
    }

    private static void loadServices(ProviderLimits.Builder pb, String path, JsonNode node, List<String> warnings) {
        if (node == null || node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            throw ConfigErrors.mustBe(path, "a mapping of service names to {max_rps, burst, per_operation}", text(node));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String svcPath = path + "." + e.getKey();
            JsonNode entry = e.getValue();
            if (entry == null || entry.isNull()) {
                continue;
            }
            if (!entry.isObject()) {
                throw ConfigErrors.mustBe(svcPath, "a mapping like {max_rps: 5, burst: 10}", text(entry));
            }
            Double maxRps = null;
            Double burst = null;
            boolean perOp = false;
            for (Iterator<Map.Entry<String, JsonNode>> f = entry.fields(); f.hasNext(); ) {
                Map.Entry<String, JsonNode> kv = f.next();
                String k = kv.getKey();
                String kp = svcPath + "." + k;
                switch (k) {
                    case "max_rps": maxRps = (Double) convert(kp, Kind.NUMBER, kv.getValue()); break;
                    case "burst": burst = (Double) convert(kp, Kind.NUMBER, kv.getValue()); break;
                    case "per_operation":
                        Boolean po = (Boolean) convert(kp, Kind.BOOLEAN, kv.getValue());
                        perOp = po != null && po;
                        break;
                    default: warnings.add(ConfigErrors.unknownKey(kp));
                }
            }
            pb.service(e.getKey(), new ServiceLimit(maxRps, burst, perOp));
        }
    }

    private static <B> void apply(Key<B> key, String path, JsonNode v, B target) {
        Object value = convert(path, key.kind(), v);
        if (value != null) {
            key.setter().accept(target, value);
        }
    }

    /** Null and YAML null mean "built-in"; anything of the wrong type fails with the key and the value. */
    private static Object convert(String path, Kind kind, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        switch (kind) {
            case BOOLEAN:
                if (!v.isBoolean()) {
                    throw ConfigErrors.mustBe(path, "true or false", text(v));
                }
                return v.booleanValue();
            case INTEGER:
                if (!v.isNumber() || (!v.isIntegralNumber() && v.doubleValue() != Math.rint(v.doubleValue()))
                        || Math.abs(v.doubleValue()) > Integer.MAX_VALUE) {
                    throw ConfigErrors.mustBe(path, "an integer", text(v));
                }
                return (int) v.doubleValue();
            case STRING:
                if (!v.isTextual()) {
                    throw ConfigErrors.mustBe(path, "a string", text(v));
                }
                return v.textValue();
            case NUMBER:
                if (!v.isNumber()) {
                    throw ConfigErrors.mustBe(path, "a number", text(v));
                }
                return v.doubleValue();
            default:
                throw new AssertionError(kind);
        }
    }

    private static Object text(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isNumber()) {
            return v.numberValue();
        }
        return new Unquoted(v.toString());
    }

    /** A YAML value printed as it was written (a list, a mapping), not as a quoted string. */
    private record Unquoted(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static <B> Key<B> num(BiConsumer<B, Double> setter) {
        return new Key<>(Kind.NUMBER, (b, v) -> setter.accept(b, (Double) v));
    }

    private static <B> Key<B> integer(BiConsumer<B, Integer> setter) {
        return new Key<>(Kind.INTEGER, (b, v) -> setter.accept(b, (Integer) v));
    }

    private static <B> Key<B> str(BiConsumer<B, String> setter) {
        return new Key<>(Kind.STRING, (b, v) -> setter.accept(b, (String) v));
    }

    private static <B> Key<B> bool(BiConsumer<B, Boolean> setter) {
        return new Key<>(Kind.BOOLEAN, (b, v) -> setter.accept(b, (Boolean) v));
    }
}
