package io.cloudg.resilience.config;

import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/** The {@link RateLimitKeys} the modules on the class path declared, loaded once: the class path does not change while a process runs. */
final class DeclaredRateLimitKeys {
    static final Set<String> KEYS;

    static {
        Set<String> keys = new TreeSet<>();
        for (RateLimitKeys k : ServiceLoader.load(RateLimitKeys.class, RateLimitKeys.class.getClassLoader())) {
            keys.addAll(k.keys());
        }
        KEYS = Set.copyOf(keys);
    }

    private DeclaredRateLimitKeys() {
    }
}
