package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.config.StartupException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet's Kafka clients over SASL and TLS against a real broker: the right secrets get in (through the
 * start-up check every fleet command makes), the wrong ones are told apart. The commands' one-line failures
 * are in {@link StartupFailuresTest}; here the secrets come from a map, as a process's environment.
 */
class KafkaSecurityTest {
    @TempDir
    static Path dir;
    static TestSecureKafka kafka;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestSecureKafka.start(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        if (kafka != null) {
            kafka.close();
        }
    }

    static KafkaClients clients(String kafkaBlock, Map<String, String> env) {
        FleetSettings fleet = FleetSettings.from(ConfigFile.fromYaml("fleet:\n  kafka:\n" + kafkaBlock));
        return new KafkaClients(fleet.kafka(), env::get);
    }

    @Test
    void theRightSaslPasswordGetsIn() {
        String sasl = "    bootstrap_servers: \"" + kafka.sasl() + "\"\n    security_protocol: SASL_PLAINTEXT\n"
                + "    sasl_mechanism: PLAIN\n    sasl_username: " + TestSecureKafka.USER + "\n";
        assertThatCode(() -> clients(sasl, Map.of("CLOUDG_KAFKA_PASSWORD", TestSecureKafka.PASSWORD))
                .requireReachable(Duration.ofSeconds(20))).doesNotThrowAnyException();
        assertThatThrownBy(() -> clients(sasl, Map.of("CLOUDG_KAFKA_PASSWORD", "guess")).requireReachable(Duration.ofSeconds(20)))
                .isInstanceOf(StartupException.class)
                .hasMessageStartingWith("Kafka at " + kafka.sasl() + " refused the SASL PLAIN login of user cloudg "
                        + "(fleet.kafka.sasl_username, the password in $CLOUDG_KAFKA_PASSWORD, fleet.kafka.sasl_password_env)")
                .hasMessageNotContaining("guess");
        assertThatThrownBy(() -> clients(sasl.replace("PLAIN\n", "SCRAM-SHA-256\n"), Map.of("CLOUDG_KAFKA_PASSWORD", "x"))
                .requireReachable(Duration.ofSeconds(20)))
                .hasMessageStartingWith("Kafka at " + kafka.sasl() + " does not offer SASL mechanism SCRAM-SHA-256 "
                        + "(fleet.kafka.sasl_mechanism)");
    }

    @Test
    void aTrustStoreOrAPemCaTrustsTheBrokersCertificate() {
        String ssl = "    bootstrap_servers: \"" + kafka.ssl() + "\"\n    security_protocol: SSL\n";
        assertThatCode(() -> clients(ssl + "    ssl_truststore_location: " + kafka.certs.trustStore() + "\n",
                Map.of("CLOUDG_KAFKA_TRUSTSTORE_PASSWORD", TestCertificates.PASSWORD)).requireReachable(Duration.ofSeconds(20)))
                .doesNotThrowAnyException();
        assertThatCode(() -> clients(ssl + "    ssl_truststore_location: " + kafka.certs.caPem() + "\n"
                + "    ssl_truststore_type: PEM\n", Map.of()).requireReachable(Duration.ofSeconds(20)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> clients(ssl + "    ssl_truststore_location: " + kafka.certs.trustStore() + "\n", Map.of())
                .requireReachable(Duration.ofSeconds(20)))
                .hasMessage("fleet.kafka.ssl_truststore_location: " + kafka.certs.trustStore() + " holds no certificate "
                        + "readable without a password: set $CLOUDG_KAFKA_TRUSTSTORE_PASSWORD "
                        + "(fleet.kafka.ssl_truststore_password_env)");
        assertThatThrownBy(() -> clients(ssl + "    ssl_truststore_location: " + kafka.certs.serverKeyPem() + "\n"
                + "    ssl_truststore_type: PEM\n", Map.of()).requireReachable(Duration.ofSeconds(20)))
                .hasMessage("fleet.kafka.ssl_truststore_location: " + kafka.certs.serverKeyPem() + " holds no certificate: "
                        + "expected PEM (-----BEGIN CERTIFICATE-----)");
    }
}
