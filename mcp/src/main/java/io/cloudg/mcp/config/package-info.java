/**
 * The MCP server's settings ({@link io.cloudg.mcp.config.McpSettings}): the {@code mcp} section of
 * {@code cloudg.yaml} (principals and their tokens, the HTTP transport's address, where datasets live) and the
 * guard rails of live operations ({@link io.cloudg.mcp.config.LiveLimits}), whose {@code live_*} keys sit in
 * the {@code ratelimit} block beside the rates they protect but are bound here: the module declares them to
 * the governor ({@link io.cloudg.mcp.config.McpRateLimitKeys}), which then leaves them alone. Read from the
 * shared {@link io.cloudg.config.ConfigFile} by this module alone, with the same typed reader and error
 * wording as every other section.
 */
package io.cloudg.mcp.config;
