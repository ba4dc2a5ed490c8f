package io.cloudg.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.mcp.config.LiveLimits;
import io.cloudg.mcp.guard.GuardSnapshot;
import io.cloudg.mcp.guard.InFlight;
import io.cloudg.mcp.guard.LiveOperationGuard;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.report.ThrottlingReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code rate_limit_status} and {@code cloudg://ratelimit} show: the guard's cooldowns, operations in
 * flight (on every replica sharing the store), the caller's quota use, the limits, and the governor's
 * throttling state (buckets slowed, breakers open, totals) from memory or the governor's store. Building it
 * never calls a cloud API.
 *
 * @param guard the live-operation guard
 * @param governor the API governor
 */
@JsonPropertyOrder({"guard", "governor"})
record RateLimitStatus(@JsonProperty("guard") Guard guard, @JsonProperty("governor") GovernorView governor) {

    @JsonPropertyOrder({"store", "limits", "cooldowns", "in_flight", "caller"})
    record Guard(@JsonProperty("store") String store, @JsonProperty("limits") Limits limits,
                 @JsonProperty("cooldowns") List<Cooldown> cooldowns, @JsonProperty("in_flight") List<Operation> inFlight,
                 @JsonProperty("caller") Caller caller) {
    }

    @JsonPropertyOrder({"live_max_concurrent", "live_max_concurrent_total", "live_cooldown_seconds",
            "live_caller_max_operations", "live_caller_window_seconds", "live_operation_timeout_seconds"})
    record Limits(@JsonProperty("live_max_concurrent") int maxConcurrent,
                  @JsonProperty("live_max_concurrent_total") int maxConcurrentTotal,
                  @JsonProperty("live_cooldown_seconds") Map<String, Integer> cooldownSeconds,
                  @JsonProperty("live_caller_max_operations") int callerMaxOperations,
                  @JsonProperty("live_caller_window_seconds") int callerWindowSeconds,
                  @JsonProperty("live_operation_timeout_seconds") int operationTimeoutSeconds) {
    }

    /** A scope cooling down: a live call on it is refused for {@code remaining_seconds} unless forced. */
    record Cooldown(@JsonProperty("scope") String scope, @JsonProperty("remaining_seconds") long remainingSeconds) {
    }

    @JsonPropertyOrder({"operation_id", "tool", "principal", "scopes", "running_seconds", "on_this_server"})
    record Operation(@JsonProperty("operation_id") String operationId, @JsonProperty("tool") String tool,
                     @JsonProperty("principal") String principal, @JsonProperty("scopes") List<String> scopes,
                     @JsonProperty("running_seconds") long runningSeconds,
                     @JsonProperty("on_this_server") boolean onThisServer) {
    }

    @JsonPropertyOrder({"principal", "roles", "may_run_live", "may_force", "started_in_window", "max_operations",
            "window_seconds"})
    record Caller(@JsonProperty("principal") String principal, @JsonProperty("roles") List<String> roles,
                  @JsonProperty("may_run_live") boolean mayRunLive, @JsonProperty("may_force") boolean mayForce, @JsonProperty("started_in_window") int startedInWindow,
                  @JsonProperty("max_operations") int maxOperations, @JsonProperty("window_seconds") int windowSeconds) {
    }

    @JsonPropertyOrder({"store", "throttling"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record GovernorView(@JsonProperty("store") String store, @JsonProperty("throttling") ThrottlingReport throttling) {
    }

    static RateLimitStatus of(LiveOperationGuard guard, LiveLimits l, Governor governor, Principal caller,
                              boolean mayRunLive) {
        GuardSnapshot s = guard.snapshot(caller);
        Map<String, Integer> cooldowns = new LinkedHashMap<>();
        cooldowns.put("default", l.cooldownSeconds());
        for (String p : RateLimitConfig.PROVIDERS) {
            cooldowns.put(p, l.cooldownSeconds(p));
        }
        List<Cooldown> cooling = new ArrayList<>();
        new TreeMap<>(s.cooldownUntilMillis()).forEach((scope, until) ->
                cooling.add(new Cooldown(scope, Math.max(1, (until - s.nowMillis() + 999) / 1000))));
        List<String> here = guard.runningHere();
        List<Operation> ops = new ArrayList<>();
        for (InFlight f : s.inFlight()) {
            ops.add(new Operation(f.operationId(), f.tool(), f.principal(), f.scopes(),
                    Math.max(0, (s.nowMillis() - f.startedMillis()) / 1000), here.contains(f.operationId())));
        }
        return new RateLimitStatus(
                new Guard(guard.store().describe(), new Limits(l.maxConcurrent(), l.maxConcurrentTotal(), cooldowns,
                        l.callerMaxOperations(), l.callerWindowSeconds(), l.operationTimeoutSeconds()), cooling, ops,
                        new Caller(caller.name(), caller.roleNames(), mayRunLive, mayRunLive && caller.mayForce(), s.callerStarts(),
                                l.callerMaxOperations(), l.callerWindowSeconds())),
                new GovernorView(governor.store().describe(), governor.report()));
    }
}
