package io.cloudg.fleet.kafka;

import io.cloudg.metrics.CloudgMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/** A Kafka client's own metrics ({@code kafka_consumer_*}, {@code kafka_producer_*}) in a process's registry. */
public final class KafkaMetrics {
    private KafkaMetrics() {
    }

    /** Binds {@code client} (a consumer or a producer) to {@code metrics}; close what it returns with the client. */
    public static CloudgMetrics.Binding bind(CloudgMetrics metrics, Object client) {
        if (!metrics.enabled()) {
            return () -> { };
        }
        KafkaClientMetrics m;
        if (client instanceof Consumer<?, ?> c) {
            m = new KafkaClientMetrics(c);
        } else if (client instanceof Producer<?, ?> p) {
            m = new KafkaClientMetrics(p);
        } else {
            throw new IllegalArgumentException("not a Kafka client: " + client);
        }
        m.bindTo(metrics.registry());
        return m::close;
    }
}
