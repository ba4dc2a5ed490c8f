package io.cloudg.mcp.guard;

import java.util.List;

/**
 * A registered live operation, as the store holds it.
 *
 * @param operationId its id
 * @param tool the MCP tool
 * @param principal who started it
 * @param scopes the scopes it holds
 * @param startedMillis when it started (store clock)
 * @param deadlineMillis when the registration lapses unless finished (store clock)
 */
public record InFlight(String operationId, String tool, String principal, List<String> scopes, long startedMillis,
                       long deadlineMillis) {
    public InFlight {
        scopes = List.copyOf(scopes);
    }
}
