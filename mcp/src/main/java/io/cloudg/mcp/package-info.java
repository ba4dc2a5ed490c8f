/**
 * cloudg's MCP server ({@code cloudg mcp}), a module of its own: tools and a resource for AI agents, served with
 * the MCP Java SDK over stdio or streamable HTTP (an embedded Jetty with the SDK's servlet transport; no
 * Spring). It maps through the worker module's embedded collectors; it knows nothing of the fleet.
 *
 * <p>Design:
 * <ul>
 *   <li>{@link io.cloudg.mcp.CloudgMcp} assembles everything from one {@code CloudGConfig} and the
 *       {@code mcp} section ({@link io.cloudg.mcp.config.McpSettings}): the
 *       {@link io.cloudg.mcp.guard.LiveOperationGuard} with its store (memory, or Redis when
 *       {@code ratelimit.backend} is redis), the {@link io.cloudg.mcp.dataset.DatasetStore}, the
 *       {@link io.cloudg.mcp.live.Collector} (the only code that reaches a cloud) and the tool definitions.
 *       The same tools serve both transports.</li>
 *   <li>Live tools ({@link io.cloudg.mcp.LiveTools}: map_inventory, collect_assets, run_scanners,
 *       run_pipeline) run only through the guard and save a dataset when they succeed. Read tools
 *       ({@link io.cloudg.mcp.DatasetTools}, rate_limit_status) never call a cloud and are never refused.</li>
 *   <li>Principals: over HTTP a bearer token from {@code mcp.principals} ({@link io.cloudg.mcp.BearerAuthFilter}
 *       answers 401 before the transport sees the request, and the transport context carries the principal to
 *       the tools; {@link io.cloudg.mcp.JsonRpcHttpFilter} then answers a request that is not one JSON-RPC
 *       message, and any error of the SDK's transport, with a JSON-RPC error object, never an exception); over
 *       stdio the configured local principal. Roles: admin, operator, viewer; the live tools need
 *       a role of {@code mcp.live_roles} (default admin, operator) or the principal's own {@code live_tools}
 *       (else -31033, before anything runs); only admin and operator may {@code force}. Every tool call and
 *       resource read counts against the principal's {@code max_calls_per_minute}.</li>
 *   <li>Errors are built in one place ({@link io.cloudg.mcp.McpErrors}): a guard refusal is JSON-RPC error
 *       -31029 with {@code reason}, {@code retry_after_seconds} and {@code use_dataset}; a forbidden force
 *       -31030; an unreachable shared guard -31031; a live operation that ran and failed is a tool result with
 *       {@code isError}.</li>
 *   <li>Payloads are small records serialized by one Jackson 2 mapper ({@code Json}); every tool result
 *       carries them as structured content and as pretty JSON text.</li>
 * </ul>
 */
package io.cloudg.mcp;
