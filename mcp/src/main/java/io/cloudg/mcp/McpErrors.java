package io.cloudg.mcp;

import io.cloudg.mcp.guard.ForceNotAllowedException;
import io.cloudg.mcp.guard.GuardOutcome;
import io.cloudg.mcp.guard.Refusal;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every error the MCP server answers, built here. Refusals and permission errors are JSON-RPC errors with
 * their own codes (an agent can branch on the code); a live operation that ran and failed is a tool result
 * with {@code isError: true} (the model reads what went wrong).
 *
 * <table>
 *   <caption>Codes</caption>
 *   <tr><th>code</th><th>when</th><th>data</th></tr>
 *   <tr><td>-31029</td><td>the guard refused a live call</td>
 *       <td>{@code reason} (cooldown, busy, quota), {@code retry_after_seconds}, {@code use_dataset},
 *       {@code limit}, {@code scopes}, {@code tool}</td></tr>
 *   <tr><td>-31030</td><td>{@code force=true} from a principal without the admin or operator role</td>
 *       <td>{@code principal}, {@code roles}, {@code required_roles}</td></tr>
 *   <tr><td>-31031</td><td>the guard's shared store (Redis) cannot be reached: no live call runs unguarded</td>
 *       <td>{@code store}</td></tr>
 *   <tr><td>-31032</td><td>the principal made more calls (tools, resource reads) than {@code mcp.principals.<name>.max_calls_per_minute}</td>
 *       <td>{@code reason} ({@code rate_limited}), {@code principal}, {@code limit}, {@code retry_after_seconds}</td></tr>
 *   <tr><td>-31033</td><td>a live tool from a principal that may not run live tools ({@code mcp.live_roles},
 *       {@code mcp.principals.<name>.live_tools})</td>
 *       <td>{@code reason} ({@code forbidden}), {@code tool}, {@code principal}, {@code roles}, {@code required_roles}</td></tr>
 *   <tr><td>-32602</td><td>a missing or wrong argument, an unknown dataset</td><td>none</td></tr>
 *   <tr><td>-32700, -32600, -32603</td><td>over HTTP, a request that is not one JSON-RPC message, or an error of
 *       the transport ({@link JsonRpcMessages}), answered by {@link #httpError}</td><td>none</td></tr>
 * </table>
 */
final class McpErrors {
    static final int LIVE_REFUSED = -31029;
    static final int FORCE_NOT_ALLOWED = -31030;
    static final int GUARD_UNAVAILABLE = -31031;
    static final int RATE_LIMITED = -31032;
    static final int LIVE_NOT_ALLOWED = -31033;

    private McpErrors() {
    }

    static McpError refused(Refusal r) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", r.reason().wire());
        data.put("retry_after_seconds", r.retryAfterSeconds());
        data.put("use_dataset", r.useDataset());
        data.put("limit", r.limit());
        data.put("scopes", r.scopes());
        data.put("tool", r.tool());
        return McpError.builder(LIVE_REFUSED).message(r.message()).data(data).build();
    }

    static McpError forceNotAllowed(ForceNotAllowedException e) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("principal", e.principal().name());
        data.put("roles", e.principal().roleNames());
        data.put("required_roles", java.util.List.of("admin", "operator"));
        return McpError.builder(FORCE_NOT_ALLOWED).message(e.getMessage()).data(data).build();
    }

    /**
     * A live tool from a principal that may not run one: by its roles (none in {@code liveRoles}) or by its
     * own {@code live_tools: false} ({@code denied}).
     */
    static McpError liveNotAllowed(String tool, io.cloudg.mcp.guard.Principal p, java.util.List<String> liveRoles,
                                   boolean denied) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", "forbidden");
        data.put("tool", tool);
        data.put("principal", p.name());
        data.put("roles", p.roleNames());
        data.put("required_roles", liveRoles);
        String why = denied ? "mcp.principals." + p.name() + ".live_tools is false"
                : liveRoles.isEmpty() ? "no role may (mcp.live_roles is empty) and mcp.principals." + p.name()
                        + ".live_tools is not true"
                : "it needs the " + String.join(" or ", liveRoles) + " role (mcp.live_roles); " + p.name() + " has "
                        + String.join(", ", p.roleNames());
        return McpError.builder(LIVE_NOT_ALLOWED).message(tool + " calls the cloud and " + p.name()
                + " may not run live tools: " + why + ". Read the saved datasets instead (list_datasets, "
                + "query_assets)").data(data).build();
    }

    static McpError guardUnavailable(String store, RuntimeException e) {
        return McpError.builder(GUARD_UNAVAILABLE).message("live operations are refused while the guard's store is "
                + "unreachable: " + e.getMessage()).data(Map.of("store", store)).build();
    }

    static McpError rateLimited(String principal, int perMinute, long waitNanos) {
        double retryAfter = Math.ceil(waitNanos / 1e8) / 10.0;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", "rate_limited");
        data.put("principal", principal);
        data.put("limit", perMinute);
        data.put("retry_after_seconds", retryAfter);
        return McpError.builder(RATE_LIMITED).message(principal + " made more than " + perMinute
                + " call(s) in a minute, tools and resources alike (mcp.principals." + principal
                + ".max_calls_per_minute); retry in "
                + retryAfter + " s").data(data).build();
    }

    /**
     * The body of an HTTP answer that is an error: {@code {"jsonrpc": "2.0", "id": id, "error": {"code", "message"}}}
     * ({@code id} JSON null when the request's is unknown).
     */
    static String httpError(com.fasterxml.jackson.databind.JsonNode id, int code, String message) {
        com.fasterxml.jackson.databind.node.ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("jsonrpc", "2.0");
        out.set("id", id);
        out.putObject("error").put("code", code).put("message", message);
        return out.toString();
    }

    static McpError invalidParams(String message) {
        return McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(message).build();
    }

    /** A live operation that started and did not succeed: failed, timed out or cancelled. */
    static McpSchema.CallToolResult operationFailed(String tool, GuardOutcome<?> o) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tool", tool);
        out.put("operation_id", o.operationId());
        out.put("joined", o.joined());
        out.put("state", o.state().name().toLowerCase(java.util.Locale.ROOT));
        out.put("error", o.error());
        out.put("duration_seconds", o.durationMillis() / 1000.0);
        return McpSchema.CallToolResult.builder().isError(true).structuredContent(out)
                .addTextContent(tool + " " + o.state().name().toLowerCase(java.util.Locale.ROOT) + ": " + o.error()
                        + " (operation " + o.operationId() + (o.joined() ? ", joined" : "") + ")")
                .build();
    }
}
