package io.cloudg.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Set;

/**
 * Keeps every name the binders export within Prometheus's conventions, as {@code promtool check metrics}
 * checks them: Micrometer's process binder exports {@code process_cpu_time_ns_total} (an abbreviated unit,
 * and nanoseconds, not seconds: dropped, {@code process_cpu_usage} stays) and {@code system_cpu_count} (a
 * gauge ending in {@code _count}, which Prometheus reserves for histograms: renamed
 * {@code system_cpus}).
 */
final class PrometheusLint {
    static final Set<String> DROPPED = Set.of("process.cpu.time");

    private PrometheusLint() {
    }

    static void apply(MeterRegistry registry) {
        registry.config().meterFilter(MeterFilter.deny(id -> DROPPED.contains(id.getName())));
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.getName().equals("system.cpu.count") ? id.withName("system.cpus") : id;
            }
        });
    }
}
