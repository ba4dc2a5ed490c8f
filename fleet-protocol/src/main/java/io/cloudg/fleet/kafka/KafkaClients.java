package io.cloudg.fleet.kafka;

import io.cloudg.fleet.KafkaSettings;
import io.cloudg.config.StartupException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Builds the fleet's Kafka clients from {@link KafkaSettings}: security (TLS, SASL with the password read
 * from the environment), then the passed-through properties, then what the fleet's guarantees need and
 * no configuration may weaken (idempotent producer with {@code acks=all}; consumers that never commit on
 * their own). Keys are strings (task ids), values bytes (JSON).
 */
public final class KafkaClients {
    private final KafkaSettings settings;
    private final Function<String, String> env;

    public KafkaClients(KafkaSettings settings, Function<String, String> env) {
        this.settings = settings;
        this.env = env;
    }

    public KafkaSettings settings() {
        return settings;
    }

    /** Connection and security properties shared by every client. */
    public Map<String, Object> common(String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        p.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, settings.securityProtocol());
        p.put(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, 2000);
        if (settings.tls()) {
            putIfSet(p, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, settings.sslTruststoreLocation());
            if (settings.sslTruststoreLocation() != null) {
                p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, settings.sslTruststoreType());
                putIfSet(p, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, secret(settings.sslTruststorePasswordEnv()));
            }
            putIfSet(p, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, settings.sslKeystoreLocation());
            if (settings.sslKeystoreLocation() != null) {
                p.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, settings.sslKeystoreType());
                putIfSet(p, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, secret(settings.sslKeystorePasswordEnv()));
                putIfSet(p, SslConfigs.SSL_KEY_PASSWORD_CONFIG, secret(settings.sslKeyPasswordEnv()));
            }
            if (settings.sslEndpointIdentification() != null) {
                p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, settings.sslEndpointIdentification());
            }
        }
        if (settings.securityProtocol().startsWith("SASL_")) {
            p.put(SaslConfigs.SASL_MECHANISM, settings.saslMechanism());
            p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas());
        }
        p.putAll(settings.properties());
        return p;
    }

    /** The JAAS line: the whole of it from {@code sasl_jaas_config_env}, or built for PLAIN and SCRAM. */
    String jaas() {
        if (settings.saslJaasConfigEnv() != null) {
            return KafkaPreflight.requiredSecret(settings.saslJaasConfigEnv(), "sasl_jaas_config_env", env);
        }
        String module = settings.saslMechanism().equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        return module + " required username=\"" + quote(settings.saslUsername()) + "\" password=\""
                + quote(KafkaPreflight.requiredSecret(settings.saslPasswordEnv(), "sasl_password_env", env)) + "\";";
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** An optional secret: the value of {@code variable}, or null when it is not named or not set. */
    private String secret(String variable) {
        String v = variable == null ? null : env.apply(variable);
        return v == null || v.isEmpty() ? null : v;
    }

    private static void putIfSet(Map<String, Object> p, String key, Object value) {
        if (value != null) {
            p.put(key, value);
        }
    }

    /** The producer of tasks, results, dead letters and journal entries. */
    public KafkaProducer<String, byte[]> producer(String clientId) {
        return new KafkaProducer<>(producerProperties(clientId), new StringSerializer(), new ByteArraySerializer());
    }

    Map<String, Object> producerProperties(String clientId) {
        Map<String, Object> p = common(clientId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, settings.deliveryTimeoutMs());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(30_000, settings.deliveryTimeoutMs()));
        // a worker's results (started, chunks, done: a few messages per task) wait up to 20 ms to share a request:
        // its network thread's CPU is per request, and no thread waits on the acknowledgement
        p.put(ProducerConfig.LINGER_MS_CONFIG, p.getOrDefault(ProducerConfig.LINGER_MS_CONFIG, 20));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, p.getOrDefault(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, p.getOrDefault(ProducerConfig.MAX_BLOCK_MS_CONFIG, settings.deliveryTimeoutMs()));
        return p;
    }

    /**
     * A member of the workers' group: no automatic commits (offsets are committed after results), one
     * record per poll (the worker takes a task only when it has room), cooperative rebalancing (a dead
     * worker's partitions move; the others keep theirs).
     */
    public KafkaConsumer<String, byte[]> groupConsumer(String group, String clientId) {
        Map<String, Object> p = common(clientId);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, settings.sessionTimeoutMs());
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(500, settings.sessionTimeoutMs() / 5));
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** A reader outside any group, positioned by its owner (the coordinator reads results so). */
    public KafkaConsumer<String, byte[]> reader(String clientId) {
        return new KafkaConsumer<>(readerProperties(clientId), new StringDeserializer(), new ByteArrayDeserializer());
    }

    private Map<String, Object> readerProperties(String clientId) {
        Map<String, Object> p = common(clientId);
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        return p;
    }

    /**
     * The coordinator's reader of the results and dead-letter topics: as {@link #reader}, but a fetch waits
     * on the broker for {@value #RESULTS_FETCH_MIN_BYTES} bytes or {@value #RESULTS_FETCH_MAX_WAIT_MS} ms, so
     * results that arrive one by one are read a batch per fetch, not a fetch each (a backlog is read at once).
     */
    public KafkaConsumer<String, byte[]> resultsReader(String clientId) {
        return new KafkaConsumer<>(resultsReaderProperties(clientId), new StringDeserializer(), new ByteArrayDeserializer());
    }

    Map<String, Object> resultsReaderProperties(String clientId) {
        Map<String, Object> p = readerProperties(clientId);
        p.putIfAbsent(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, RESULTS_FETCH_MIN_BYTES);
        p.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, RESULTS_FETCH_MAX_WAIT_MS);
        return p;
    }

    static final int RESULTS_FETCH_MIN_BYTES = 64 * 1024;
    static final int RESULTS_FETCH_MAX_WAIT_MS = 100;

    /**
     * How long a process waits at start for the Kafka cluster to answer, once a bootstrap server took the
     * connection, before it gives up. 30 s, not less: a broker still starting beside its workers (compose, a
     * Deployment rolled with Kafka) or a cold worker JVM on a busy host answers late, and a worker that exits
     * on it only restarts into the same wait (three worker JVMs starting beside a build took over 10 s).
     */
    public static final Duration REACH_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Reads the trust and key stores {@code fleet.kafka} names, connects to a bootstrap server, then asks the
     * cluster for its nodes, once. A store that cannot be used, no bootstrap server taking a connection (a
     * closed port, an unknown host), a refused SASL login, a certificate that is not trusted (each at once) or
     * no answer within {@code timeout} (a listener that does not speak Kafka) fails the start with one line
     * naming the setting ({@link KafkaPreflight}).
     */
    public void requireReachable(Duration timeout) {
        KafkaPreflight.checkStores(settings, env);
        KafkaPreflight.checkConnect(settings);
        Map<String, Object> p = common("cloudg-probe");
        p.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        p.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        Admin probe;
        try {
            probe = Admin.create(p);
        } catch (KafkaException e) {
            throw new StartupException("cannot make a Kafka client for " + settings.bootstrapServers() + ": "
                    + KafkaPreflight.causes(e) + " (fleet.kafka)", e);
        }
        try (Admin admin = probe) {
            admin.describeCluster().nodes().get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while reaching Kafka at " + settings.bootstrapServers(), e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unreachable(timeout, e);
            }
            throw new StartupException(KafkaPreflight.explain(settings, cause), e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw unreachable(timeout, e);
        }
    }

    private StartupException unreachable(Duration timeout, Exception e) {
        return new StartupException("cannot reach Kafka at " + settings.bootstrapServers() + " within "
                + timeout.toSeconds() + " s (fleet.kafka.bootstrap_servers or --kafka)", e);
    }

    public Admin admin(String clientId) {
        Map<String, Object> p = common(clientId);
        p.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
        p.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return Admin.create(p);
    }
}
