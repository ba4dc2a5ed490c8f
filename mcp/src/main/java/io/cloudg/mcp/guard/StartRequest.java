package io.cloudg.mcp.guard;

import java.util.List;

/**
 * What {@link GuardStore#tryStart} decides on: the operation, who asks, its scopes with their cooldowns,
 * and the limits in force (the store holds no configuration).
 *
 * @param operationId unique id of the operation that would start
 * @param principal the caller (the quota is per principal)
 * @param tool the MCP tool
 * @param scopes the scopes the operation touches, each with the cooldown that will follow it
 * @param force skip the cooldown check (never the caps or the quota)
 * @param maxPerScope {@code live_max_concurrent}
 * @param maxTotal {@code live_max_concurrent_total}
 * @param callerMaxOperations {@code live_caller_max_operations}, 0 = no quota
 * @param callerWindowMillis {@code live_caller_window_seconds} in ms
 * @param leaseMillis how long the registration lives unless renewed ({@link GuardStore#renew}): a replica
 *        that dies frees its scopes within it
 */
public record StartRequest(String operationId, String principal, String tool, List<ScopeCooldown> scopes, boolean force,
                           int maxPerScope, int maxTotal, int callerMaxOperations, long callerWindowMillis,
                           long leaseMillis) {
    public StartRequest {
        scopes = List.copyOf(scopes);
    }

    /** The longest cooldown among the scopes (the busy hint: a running operation ends in at least one). */
    public long longestCooldownMillis() {
        return scopes.stream().mapToLong(ScopeCooldown::cooldownMillis).max().orElse(0);
    }
}
