/**
 * The only code of the MCP server that calls a cloud: {@link io.cloudg.mcp.live.Collector}, run by the
 * guard. {@link io.cloudg.mcp.live.EmbeddedCollector} maps through the server's governor with the embedded
 * mapper, or collects one provider/account/region/service slice.
 */
package io.cloudg.mcp.live;
