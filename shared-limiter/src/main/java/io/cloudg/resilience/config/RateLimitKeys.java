package io.cloudg.resilience.config;

import java.util.Set;
import java.util.TreeSet;

/**
 * Keys inside the {@code ratelimit} block that another module reads, not the governor (the MCP server's
 * {@code live_*} guard rails): the governor's loader neither binds them nor calls them unknown. A module
 * declares its keys in {@code META-INF/services/io.cloudg.resilience.config.RateLimitKeys}, as each module
 * declares its top-level sections; without that module on the class path they are unknown keys like any
 * other. Keys are relative to {@code ratelimit}, {@value #PROVIDER} standing for any provider's block
 * ({@code <provider>.live_cooldown_seconds}). Implementations MUST have a public no-argument constructor and
 * MUST return the same keys on every call.
 */
public interface RateLimitKeys {
    /** Stands for the name of any provider's block in a key ({@code <provider>.live_cooldown_seconds}). */
    String PROVIDER = "<provider>";

    /** The keys this module reads inside {@code ratelimit}. */
    Set<String> keys();

    /** Whether a module on the class path declared {@code key} (relative to {@code ratelimit}). */
    static boolean readElsewhere(String key) {
        return DeclaredRateLimitKeys.KEYS.contains(key);
    }

    /** Every key the modules on the class path declared, as {@code ratelimit.<key>} paths (for the reference docs). */
    static Set<String> declared() {
        Set<String> out = new TreeSet<>();
        DeclaredRateLimitKeys.KEYS.forEach(k -> out.add("ratelimit." + k));
        return out;
    }
}
