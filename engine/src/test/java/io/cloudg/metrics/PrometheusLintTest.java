package io.cloudg.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The names promtool would refuse are dropped or renamed before they reach a registry. */
class PrometheusLintTest {
    @Test
    void abbreviatedUnitsAreDroppedAndCountGaugesTakeAPlural() {
        SimpleMeterRegistry r = new SimpleMeterRegistry();
        PrometheusLint.apply(r);
        FunctionCounter.builder("kafka.consumer.io.time.ns", this, x -> 1).register(r);
        Gauge.builder("kafka.app.info.start.time.ms", () -> 1).register(r);
        FunctionCounter.builder("process.cpu.time", this, x -> 1).baseUnit("ns").register(r);
        Gauge.builder("kafka.producer.connection.count", () -> 2).register(r);
        Gauge.builder("system.cpu.count", () -> 2).register(r);
        Gauge.builder("jvm.threads.states", () -> 3).register(r);
        assertThat(r.getMeters()).extracting(m -> m.getId().getName())
                .containsExactlyInAnyOrder("kafka.producer.connections", "system.cpus", "jvm.threads.states");
        assertThat(r.get("kafka.producer.connections").gauge().getId().getDescription())
                .isEqualTo("the kafka.producer.connections metric of the Kafka client (it has no description)");
        Gauge.builder("described", () -> 1).description("mine").register(r);
        assertThat(r.get("described").gauge().getId().getDescription()).isEqualTo("mine");
    }
}
