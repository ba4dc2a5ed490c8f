package io.cloudg.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Arrays;
import java.util.Set;

/**
 * Keeps every name the binders export within Prometheus's conventions, as {@code promtool check metrics}
 * lints them, so that each endpoint passes it:
 * <ul>
 *   <li>a meter in an abbreviated unit ({@code ns}, {@code ms}, {@code us}, in its name or base unit:
 *       Micrometer's {@code process_cpu_time_ns_total}, Kafka's {@code io_time_ns_total},
 *       {@code app_info_start_time_ms}) is dropped: its values are not in seconds, and a rename cannot
 *       rescale them (each has a unitless sibling: {@code process_cpu_usage}, Kafka's {@code *_ratio});</li>
 *   <li>a gauge ending in {@code .count} (a suffix Prometheus keeps for histograms) loses it and takes a
 *       plural: {@code system_cpu_count} becomes {@code system_cpus}, Kafka's
 *       {@code kafka_consumer_connection_count} becomes {@code kafka_consumer_connections};</li>
 *   <li>a meter without a description (some of Kafka's) gets one naming its source: Prometheus wants
 *       help text for every family.</li>
 * </ul>
 * cloudg's own meters are named to need none of this.
 */
final class PrometheusLint {
    static final Set<String> ABBREVIATED_UNITS = Set.of("ns", "ms", "us");

    private PrometheusLint() {
    }

    static void apply(MeterRegistry registry) {
        registry.config().meterFilter(MeterFilter.deny(PrometheusLint::abbreviated));
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                Meter.Id out = id.getType() == Meter.Type.GAUGE && id.getName().endsWith(".count")
                        ? id.withName(plural(id.getName().substring(0, id.getName().length() - ".count".length())))
                        : id;
                if (out.getDescription() == null || out.getDescription().isBlank()) {
                    out = new Meter.Id(out.getName(), Tags.of(out.getTagsAsIterable()), out.getBaseUnit(),
                            "the " + out.getName() + " metric of " + source(out.getName()), out.getType());
                }
                return out;
            }
        });
    }

    /** Who exports a meter, by its name's first part (for the help text of one that has none). */
    static String source(String name) {
        return name.startsWith("kafka.") ? "the Kafka client (it has no description)" : "a binder (it has no description)";
    }

    static boolean abbreviated(Meter.Id id) {
        return (id.getBaseUnit() != null && ABBREVIATED_UNITS.contains(id.getBaseUnit()))
                || Arrays.stream(id.getName().split("[._-]")).anyMatch(ABBREVIATED_UNITS::contains);
    }

    static String plural(String name) {
        return name.endsWith("s") ? name : name + "s";
    }
}
