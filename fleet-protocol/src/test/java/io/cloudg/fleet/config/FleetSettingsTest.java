package io.cloudg.fleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.config.RateLimitConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetSettingsTest {
    static final String YAML = """
            providers: [aws]
            aws: {regions: [us-east-1], org: true}
            ratelimit:
              backend: redis
              redis: {url: "rediss://redis.example:6380", username: cloudg, password_env: CLOUDG_REDIS_PASSWORD}
            fleet:
              kafka:
                bootstrap_servers: kafka-0:9093,kafka-1:9093
                security_protocol: SASL_SSL
                sasl_mechanism: SCRAM-SHA-512
                sasl_username: cloudg
                ssl_truststore_location: /etc/cloudg/kafka/truststore.p12
                properties: {client.rack: eu-west-1a}
              topics: {prefix: estate1, task_partitions: 48}
              group: estate1-workers
              task_timeout_seconds: 120
              max_attempts: 5
              worker: {max_in_flight: 2, threads: 8, shutdown_grace_seconds: 0, health_port: 0}
            """;

    @Test
    void oneFileConfiguresTheMapAndTheFleet() {
        ConfigFile f = ConfigFile.fromYaml(YAML);
        CloudGConfig config = CloudGConfig.from(f);
        FleetSettings s = FleetSettings.from(f);
        assertThat(config.providers()).containsExactly("aws");
        assertThat(f.warnings()).as("every key is read; the fleet block is not an unknown key of the map's").isEmpty();
        assertThat(config.ratelimit().backend()).isEqualTo(RateLimitConfig.Backend.REDIS);
        assertThat(config.ratelimit().redis().tls()).isTrue();
        assertThat(s.kafka().bootstrapServers()).isEqualTo("kafka-0:9093,kafka-1:9093");
        assertThat(s.topics().tasks()).isEqualTo("estate1.tasks");
        assertThat(s.topics().taskPartitions()).isEqualTo(48);
        assertThat(s.group()).isEqualTo("estate1-workers");
        assertThat(s.taskTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(s.maxAttempts()).isEqualTo(5);
        assertThat(s.worker().maxInFlight()).isEqualTo(2);
        assertThat(s.worker().shutdownGrace()).isZero();
    }

    @Test
    void saslAndTlsPassThroughWithTheSecretFromTheEnvironment() {
        FleetSettings s = fleet(YAML);
        Map<String, String> env = Map.of("CLOUDG_KAFKA_PASSWORD", "s3cr\"t", "CLOUDG_KAFKA_TRUSTSTORE_PASSWORD", "ts");
        Map<String, Object> p = new KafkaClients(s.kafka(), env::get).common("c1");
        assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/etc/cloudg/kafka/truststore.p12")
                .containsEntry("ssl.truststore.password", "ts").containsEntry("client.rack", "eu-west-1a")
                .containsEntry("bootstrap.servers", "kafka-0:9093,kafka-1:9093");
        assertThat((String) p.get("sasl.jaas.config")).isEqualTo(
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"cloudg\" password=\"s3cr\\\"t\";");
        assertThat(s.kafka().toString()).doesNotContain("s3cr").contains("SCRAM-SHA-512 as cloudg");
    }

    @Test
    void aMissingSecretOrAMissingMechanismSaysWhichKey() {
        FleetSettings s = fleet(YAML);
        assertThatThrownBy(() -> new KafkaClients(s.kafka(), k -> null).common("c"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("fleet.kafka.sasl_password_env must be the name of a set environment variable, but was "
                        + "\"CLOUDG_KAFKA_PASSWORD\"");
        assertThatThrownBy(() -> fleet("fleet: {kafka: {security_protocol: SASL_PLAINTEXT}}"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("fleet.kafka.sasl_mechanism: is required when security_protocol is SASL_PLAINTEXT");
    }

    @Test
    void wrongValuesNameTheirKey() {
        assertThatThrownBy(() -> fleet("fleet: {kafka: {bootstrap_servers: 'kafka'}}"))
                .hasMessage("fleet.kafka.bootstrap_servers must be a host:port list such as kafka:9092, but was \"kafka\"");
        assertThatThrownBy(() -> fleet("fleet: {max_attempts: 0}"))
                .hasMessage("fleet.max_attempts must be an integer >= 1, but was 0");
        assertThatThrownBy(() -> fleet("fleet: {task_timeout_seconds: soon}"))
                .hasMessage("fleet.task_timeout_seconds must be a positive number of seconds, but was \"soon\"");
        assertThatThrownBy(() -> fleet("fleet: {topics: {prefix: 'a b'}}"))
                .hasMessageStartingWith("fleet.topics.prefix must be");
    }

    @Test
    void aKeyNobodyReadsIsReportedWithItsPath() {
        ConfigFile f = ConfigFile.fromYaml("fleet: {kafka: {bootstrap_server: 'k:9092'}, worker: {thread: 3}}");
        FleetSettings.from(f);
        assertThat(f.warnings()).containsExactly("Unknown config key fleet.kafka.bootstrap_server is ignored",
                "Unknown config key fleet.worker.thread is ignored");
    }

    @Test
    void maxInFlightUnsetKeepsTheThreadsBusyAndASetOneMustBePositive() {
        assertThat(fleet("providers: [aws]\n").worker().maxInFlight()).isEqualTo(io.cloudg.fleet.WorkerSettings.AUTO);
        assertThatThrownBy(() -> fleet("fleet: {worker: {max_in_flight: 0}}"))
                .hasMessage("fleet.worker.max_in_flight must be an integer >= 1, but was 0");
        assertThatThrownBy(() -> io.cloudg.fleet.WorkerSettings.DEFAULTS.withMaxInFlight(0))
                .hasMessage("fleet.worker.max_in_flight must be an integer >= 1, but was 0");
    }

    @Test
    void theProbesListenOnEveryInterfaceUnlessHealthHostSaysOtherwise() {
        assertThat(fleet("providers: [aws]\n").worker().healthHost()).isNull();
        assertThat(fleet("fleet: {worker: {health_host: 127.0.0.1}}").worker().healthHost()).isEqualTo("127.0.0.1");
        assertThat(fleet("fleet: {worker: {health_host: \"::1\"}}").worker().healthHost()).isEqualTo("::1");
        assertThatThrownBy(() -> fleet("fleet: {worker: {health_host: \"pod ip\"}}"))
                .hasMessage("fleet.worker.health_host must be an IP address or a host name to listen on, like 127.0.0.1, "
                        + "0.0.0.0 or ::, but was \"pod ip\"");
    }

    @Test
    void noFleetBlockMeansTheDefaults() {
        FleetSettings s = fleet("providers: [aws]\n");
        assertThat(s).isEqualTo(FleetSettings.DEFAULTS);
        assertThat(s.topics().results()).isEqualTo("cloudg.results");
        assertThat(s.topics().deadLetters()).isEqualTo("cloudg.dead-letters");
    }

    private static FleetSettings fleet(String yaml) {
        return FleetSettings.from(ConfigFile.fromYaml(yaml));
    }
}
