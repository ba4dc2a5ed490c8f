package io.cloudg.metrics;

import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a process mapped, counted by the process that collected it (an embedded map, a worker, the
 * coordinator's own tasks): {@code cloudg_assets_mapped_total{provider}} and
 * {@code cloudg_coverage_entries_total{provider, status}} (one entry per collector per account x region,
 * SUCCESS, PARTIAL or FAILED). Counted when a collector job ends, with the job's assets.
 */
public final class MapMetrics {
    /** Counts nothing. */
    public static final MapMetrics NONE = new MapMetrics(null);

    private final MeterRegistry registry;
    private final Map<String, ProviderMeters> byProvider = new ConcurrentHashMap<>();

    private record ProviderMeters(Counter assets, Map<CoverageStatus, Counter> entries) {
    }

    private MapMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public static MapMetrics of(CloudgMetrics metrics) {
        return metrics.enabled() ? new MapMetrics(metrics.registry()) : NONE;
    }

    /** A collector job of {@code provider} ended with {@code entry}. */
    public void covered(String provider, ServiceCoverage entry) {
        if (registry == null) {
            return;
        }
        ProviderMeters m = byProvider.computeIfAbsent(provider, this::meters);
        m.assets().increment(entry.assetCount());
        m.entries().get(entry.status()).increment();
    }

    private ProviderMeters meters(String provider) {
        Counter assets = Counter.builder("cloudg.assets.mapped").tag("provider", provider)
                .description("Assets collected by this process").register(registry);
        Map<CoverageStatus, Counter> entries = new EnumMap<>(CoverageStatus.class);
        for (CoverageStatus s : CoverageStatus.values()) {
            entries.put(s, Counter.builder("cloudg.coverage.entries").tag("provider", provider).tag("status", s.name())
                    .description("Coverage entries (one per collector per account x region) by status").register(registry));
        }
        return new ProviderMeters(assets, entries);
    }
}
