package io.cloudg.config;

import java.util.Set;

/** The sections the worker module reads: what to map, how ({@code ratelimit}) and as a fleet ({@code fleet}). */
public final class WorkerConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("providers", "aws", "azure", "gcp", "ratelimit", "output_dir", "workers", "fleet");
    }
}
