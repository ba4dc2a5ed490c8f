package io.cloudg.mcp.config;

import io.cloudg.config.ConfigKeys;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** The section the MCP server reads: {@code mcp}; and its {@code live_*} keys of {@code ratelimit} ({@link LiveLimits}). */
public final class McpConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("mcp");
    }

    @Override
    public SortedSet<String> documentedKeys() {
        SortedSet<String> out = new TreeSet<>();
        McpSettings.KEYS.stream().filter(k -> !k.equals("http") && !k.equals("principals")).forEach(k -> out.add("mcp." + k));
        out.addAll(ConfigKeys.under("mcp.http", McpSettings.HTTP_KEYS));
        out.addAll(ConfigKeys.under("mcp.principals.<name>", McpSettings.PRINCIPAL_KEYS));
        out.addAll(LiveLimits.documentedKeys());
        return out;
    }
}
