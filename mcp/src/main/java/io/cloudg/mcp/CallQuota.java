package io.cloudg.mcp;

import io.cloudg.mcp.config.McpSettings;
import io.cloudg.resilience.core.TokenBuckets;
import io.cloudg.resilience.time.TimeSource;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Each principal's calls per minute ({@code mcp.principals.<name>.max_calls_per_minute}), every tool call and
 * resource read alike: a token bucket of that many tokens refilling over a minute, so a principal may spend
 * its minute in a burst and then goes at the limit's pace. Separate from the live-operation guard, which decides what a live
 * call may do to a cloud; this one decides how often a caller may ask anything at all. Kept per server
 * process (each replica counts its own callers). A principal without a limit is never counted.
 */
final class CallQuota {
    private record State(double tokens, long refilledAt) {
    }

    private final Map<String, Integer> limits = new HashMap<>();
    private final ConcurrentHashMap<String, AtomicReference<State>> buckets = new ConcurrentHashMap<>();
    private final TimeSource time;

    CallQuota(McpSettings settings, TimeSource time) {
        for (McpSettings.PrincipalSpec p : settings.principals()) {
            if (p.maxCallsPerMinute() != null) {
                limits.put(p.name(), p.maxCallsPerMinute());
            }
        }
        this.time = time;
    }

    /** The principal's limit, or null for none. */
    Integer limit(String principal) {
        return limits.get(principal);
    }

    /**
     * Takes one call from {@code principal}'s minute; empty when it may go, else the nanoseconds until it may.
     */
    OptionalLong take(String principal) {
        Integer max = limits.get(principal);
        if (max == null) {
            return OptionalLong.empty();
        }
        double rate = max / 60.0;
        AtomicReference<State> ref = buckets.computeIfAbsent(principal, k -> new AtomicReference<>());
        while (true) {
            State cur = ref.get();
            long now = time.nanoTime();
            double tokens = cur == null ? max : TokenBuckets.refilled(cur.tokens(), cur.refilledAt(), now, rate, max);
            long at = cur == null ? now : Math.max(now, cur.refilledAt());
            if (tokens < 1) {
                return OptionalLong.of(TokenBuckets.waitFor(tokens - 1, at, now, rate));
            }
            if (ref.compareAndSet(cur, new State(tokens - 1, at))) {
                return OptionalLong.empty();
            }
        }
    }
}
