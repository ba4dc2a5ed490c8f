package io.cloudg.fleet.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The clients' tuning for many small messages, and the user's {@code kafka.properties} over it. */
class KafkaClientsTest {
    private static KafkaClients clients(String properties) {
        FleetSettings s = FleetSettings.from(ConfigFile.fromYaml("""
                providers: [aws]
                fleet:
                  kafka: {bootstrap_servers: "kafka-0:9092", properties: %s}
                """.formatted(properties)));
        return new KafkaClients(s.kafka(), k -> null);
    }

    @Test
    void resultsAreBatchedByDefault() {
        KafkaClients k = clients("{}");
        assertThat(k.producerProperties("p")).containsEntry("linger.ms", 20).containsEntry("compression.type", "lz4")
                .containsEntry("acks", "all").containsEntry("enable.idempotence", true);
        assertThat(k.resultsReaderProperties("r")).containsEntry("fetch.min.bytes", 64 * 1024)
                .containsEntry("fetch.max.wait.ms", 100).containsEntry("enable.auto.commit", false)
                .doesNotContainKey("group.id");
    }

    @Test
    void theUsersPropertiesWinOverTheTuningButNotOverTheGuarantees() {
        KafkaClients k = clients("{linger.ms: 0, fetch.min.bytes: 1, fetch.max.wait.ms: 500, compression.type: zstd, acks: '1'}");
        Map<String, Object> producer = k.producerProperties("p");
        assertThat(producer).containsEntry("linger.ms", "0").containsEntry("compression.type", "zstd")
                .as("acks=all is the fleet's guarantee").containsEntry("acks", "all");
        assertThat(k.resultsReaderProperties("r")).containsEntry("fetch.min.bytes", "1").containsEntry("fetch.max.wait.ms", "500");
    }
}
