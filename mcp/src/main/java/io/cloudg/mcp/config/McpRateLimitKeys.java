package io.cloudg.mcp.config;

import io.cloudg.resilience.config.RateLimitKeys;
import java.util.Set;

/** The keys of the {@code ratelimit} block the MCP server reads ({@link LiveLimits}), not the governor. */
public final class McpRateLimitKeys implements RateLimitKeys {
    @Override
    public Set<String> keys() {
        return LiveLimits.KEYS;
    }
}
