package io.cloudg.config;

import io.cloudg.resilience.config.RateLimitConfig;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** The sections the engine reads: what to map, where its results go ({@code output_dir}) and how ({@code ratelimit}). */
public final class EngineConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        // workers: job_concurrency's old name, still read (with a warning), so not unknown
        return Set.of("providers", "aws", "azure", "gcp", "ratelimit", "output_dir", "job_concurrency", "workers");
    }

    @Override
    public SortedSet<String> documentedKeys() {
        SortedSet<String> out = new TreeSet<>(Set.of("providers", "output_dir", "job_concurrency"));
        out.addAll(ConfigKeys.under("aws", AwsSettings.KEYS));
        out.addAll(ConfigKeys.under("azure", AzureSettings.KEYS));
        out.addAll(ConfigKeys.under("gcp", GcpSettings.KEYS));
        out.addAll(RateLimitConfig.documentedKeys());
        return out;
    }
}
