package io.cloudg.mcp.config;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RateLimitKeys;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Guard rails for live collections requested through MCP ({@code ratelimit.live_*}). The keys sit in the
 * {@code ratelimit} block, beside the rates they protect, but the MCP server binds and enforces them: the
 * governor does not read them ({@link McpRateLimitKeys} tells it they are this module's).
 *
 * @param maxConcurrent live operations at once per scope ({@code live_max_concurrent}, 1)
 * @param maxConcurrentTotal live operations at once overall ({@code live_max_concurrent_total}, 2)
 * @param cooldownSeconds pause after an operation on a scope ends, failed ones included
 *        ({@code live_cooldown_seconds}, 120); a provider's own value wins
 * @param callerMaxOperations operations per caller per window, 0 = off ({@code live_caller_max_operations})
 * @param callerWindowSeconds the window of that quota ({@code live_caller_window_seconds}, 3600)
 * @param operationTimeoutSeconds an operation still running after this is cancelled
 *        ({@code live_operation_timeout_seconds}, 3600)
 * @param providerCooldownSeconds a provider's own cooldown ({@code ratelimit.<provider>.live_cooldown_seconds})
 */
public record LiveLimits(int maxConcurrent, int maxConcurrentTotal, int cooldownSeconds, int callerMaxOperations,
                         int callerWindowSeconds, int operationTimeoutSeconds,
                         Map<String, Integer> providerCooldownSeconds) {

    public static final LiveLimits DEFAULTS = new LiveLimits(1, 2, 120, 0, 3600, 3600, Map.of());

    /** The keys of the {@code ratelimit} block (and, with {@code <provider>.}, of a provider's) read here. */
    static final Set<String> KEYS = Set.of("live_max_concurrent", "live_max_concurrent_total", "live_cooldown_seconds",
            "live_caller_max_operations", "live_caller_window_seconds", "live_operation_timeout_seconds",
            RateLimitKeys.PROVIDER + ".live_cooldown_seconds");

    public LiveLimits {
        atLeast("ratelimit.live_max_concurrent", maxConcurrent, 1);
        atLeast("ratelimit.live_max_concurrent_total", maxConcurrentTotal, 1);
        atLeast("ratelimit.live_cooldown_seconds", cooldownSeconds, 0);
        atLeast("ratelimit.live_caller_max_operations", callerMaxOperations, 0);
        atLeast("ratelimit.live_caller_window_seconds", callerWindowSeconds, 1);
        atLeast("ratelimit.live_operation_timeout_seconds", operationTimeoutSeconds, 1);
        providerCooldownSeconds = Map.copyOf(providerCooldownSeconds);
        providerCooldownSeconds.forEach((p, s) -> {
            if (!RateLimitConfig.PROVIDERS.contains(p)) {
                throw ConfigErrors.mustBe("live cooldown provider", "one of " + String.join(", ", RateLimitConfig.PROVIDERS), p);
            }
            atLeast("ratelimit." + p + ".live_cooldown_seconds", s, 0);
        });
    }

    private static void atLeast(String key, int v, int min) {
        if (v < min) {
            throw ConfigErrors.mustBe(key, "an integer >= " + min, v);
        }
    }

    /** The {@code live_*} keys of the {@code ratelimit} block ({@code ratelimit}: the file's section, maybe empty). */
    public static LiveLimits load(ConfigNode ratelimit) {
        LiveLimits d = DEFAULTS;
        Map<String, Integer> own = new TreeMap<>();
        for (String p : RateLimitConfig.PROVIDERS) {
            Integer s = ratelimit.section(p).integer("live_cooldown_seconds", null);
            if (s != null) {
                own.put(p, s);
            }
        }
        return new LiveLimits(ratelimit.integer("live_max_concurrent", d.maxConcurrent()),
                ratelimit.integer("live_max_concurrent_total", d.maxConcurrentTotal()),
                ratelimit.integer("live_cooldown_seconds", d.cooldownSeconds()),
                ratelimit.integer("live_caller_max_operations", d.callerMaxOperations()),
                ratelimit.integer("live_caller_window_seconds", d.callerWindowSeconds()),
                ratelimit.integer("live_operation_timeout_seconds", d.operationTimeoutSeconds()), own);
    }

    /** Every key read here, as a dotted path ({@code ratelimit.live_max_concurrent}, {@code ratelimit.<provider>.live_cooldown_seconds}). */
    static SortedSet<String> documentedKeys() {
        SortedSet<String> out = new TreeSet<>();
        KEYS.forEach(k -> out.add("ratelimit." + k));
        return out;
    }

    /** The cooldown after an operation on {@code provider}, its own value winning over the global one. */
    public int cooldownSeconds(String provider) {
        return providerCooldownSeconds.getOrDefault(provider, cooldownSeconds);
    }

    public LiveLimits withMaxConcurrent(int v) {
        return new LiveLimits(v, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, callerWindowSeconds,
                operationTimeoutSeconds, providerCooldownSeconds);
    }

    public LiveLimits withMaxConcurrentTotal(int v) {
        return new LiveLimits(maxConcurrent, v, cooldownSeconds, callerMaxOperations, callerWindowSeconds,
                operationTimeoutSeconds, providerCooldownSeconds);
    }

    public LiveLimits withCooldownSeconds(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, v, callerMaxOperations, callerWindowSeconds,
                operationTimeoutSeconds, providerCooldownSeconds);
    }

    /** These limits with {@code provider}'s own cooldown. */
    public LiveLimits withCooldownSeconds(String provider, int v) {
        Map<String, Integer> own = new TreeMap<>(providerCooldownSeconds);
        own.put(provider, v);
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, callerWindowSeconds,
                operationTimeoutSeconds, own);
    }

    public LiveLimits withCallerMaxOperations(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, v, callerWindowSeconds,
                operationTimeoutSeconds, providerCooldownSeconds);
    }

    public LiveLimits withCallerWindowSeconds(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, v,
                operationTimeoutSeconds, providerCooldownSeconds);
    }

    public LiveLimits withOperationTimeoutSeconds(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, callerWindowSeconds,
                v, providerCooldownSeconds);
    }
}
