package io.cloudg.mcp.guard;

import java.util.List;
import java.util.Map;

/**
 * The guard's shared state at one moment of the store's clock, for {@code rate_limit_status}.
 *
 * @param nowMillis the store's clock when the snapshot was taken
 * @param inFlight operations registered and not lapsed
 * @param cooldownUntilMillis scopes still cooling down, with the end of their cooldown
 * @param callerStarts operations the asking principal started within its quota window
 */
public record GuardSnapshot(long nowMillis, List<InFlight> inFlight, Map<String, Long> cooldownUntilMillis,
                            int callerStarts) {
    public GuardSnapshot {
        inFlight = List.copyOf(inFlight);
        cooldownUntilMillis = Map.copyOf(cooldownUntilMillis);
    }
}
