package io.cloudg.mcp.config;

import io.cloudg.config.ConfigKeys;
import java.util.Set;

/** The section the MCP server reads: {@code mcp}. */
public final class McpConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("mcp");
    }
}
