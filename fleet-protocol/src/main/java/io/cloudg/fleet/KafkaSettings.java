package io.cloudg.fleet;

import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.ConfigErrors;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code fleet.kafka} block: where Kafka is and how to talk to it. Secrets are never in the file: a
 * password is read from the environment variable the block names (in Kubernetes, a Secret reference).
 *
 * <pre>{@code
 * fleet:
 *   kafka:
 *     bootstrap_servers: kafka-0.kafka:9093,kafka-1.kafka:9093
 *     security_protocol: SASL_SSL            # PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL
 *     sasl_mechanism: SCRAM-SHA-512          # PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (or sasl_jaas_config_env)
 *     sasl_username: cloudg
 *     sasl_password_env: CLOUDG_KAFKA_PASSWORD
 *     ssl_truststore_location: /etc/cloudg/kafka/truststore.p12
 *     ssl_truststore_password_env: CLOUDG_KAFKA_TRUSTSTORE_PASSWORD
 *     properties: {client.rack: eu-west-1a}  # any other client property, passed through
 * }</pre>
 *
 * @param bootstrapServers host:port list
 * @param securityProtocol PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
 * @param saslMechanism PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI, or null
 * @param saslUsername the user for PLAIN and SCRAM
 * @param saslPasswordEnv the variable holding that user's password
 * @param saslJaasConfigEnv the variable holding a whole {@code sasl.jaas.config} (any other mechanism)
 * @param sslTruststoreLocation trust store file, or null for the JVM's
 * @param sslTruststoreType PKCS12 or JKS
 * @param sslTruststorePasswordEnv the variable holding the trust store password
 * @param sslKeystoreLocation key store for mutual TLS, or null
 * @param sslKeystoreType PKCS12 or JKS
 * @param sslKeystorePasswordEnv the variable holding the key store password
 * @param sslKeyPasswordEnv the variable holding the key's password, if it has its own
 * @param sslEndpointIdentification {@code https} (verify the host name, the default) or empty to not
 * @param createTopics create missing topics at start (off where the principal may not)
 * @param sessionTimeoutMs how soon the group notices a dead worker (and redelivers its tasks)
 * @param deliveryTimeoutMs how long a producer keeps retrying a send (a broker restart must fit in it)
 * @param properties any other client property, passed through unchanged
 */
public record KafkaSettings(String bootstrapServers, String securityProtocol, String saslMechanism,
                            String saslUsername, String saslPasswordEnv, String saslJaasConfigEnv,
                            String sslTruststoreLocation, String sslTruststoreType, String sslTruststorePasswordEnv,
                            String sslKeystoreLocation, String sslKeystoreType, String sslKeystorePasswordEnv,
                            String sslKeyPasswordEnv, String sslEndpointIdentification, boolean createTopics,
                            int sessionTimeoutMs, int deliveryTimeoutMs, Map<String, String> properties) {

    static final String K = "fleet.kafka.";
    static final Set<String> KEYS = Set.of("bootstrap_servers", "security_protocol", "sasl_mechanism", "sasl_username",
            "sasl_password_env", "sasl_jaas_config_env", "ssl_truststore_location", "ssl_truststore_type",
            "ssl_truststore_password_env", "ssl_keystore_location", "ssl_keystore_type", "ssl_keystore_password_env",
            "ssl_key_password_env", "ssl_endpoint_identification", "create_topics", "session_timeout_ms",
            "delivery_timeout_ms", "properties");
    static final Set<String> PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
    static final Set<String> MECHANISMS = Set.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER", "GSSAPI");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern SERVERS = Pattern.compile("[^\\s,:]+:\\d{1,5}(,[^\\s,:]+:\\d{1,5})*");

    public static final KafkaSettings DEFAULTS = new KafkaSettings("127.0.0.1:9092", "PLAINTEXT", null, null,
            "CLOUDG_KAFKA_PASSWORD", null, null, "PKCS12", "CLOUDG_KAFKA_TRUSTSTORE_PASSWORD", null, "PKCS12",
            "CLOUDG_KAFKA_KEYSTORE_PASSWORD", null, null, true, 15_000, 300_000, Map.of());

    public KafkaSettings {
        if (bootstrapServers == null || !SERVERS.matcher(bootstrapServers.replace(" ", "")).matches()) {
            throw ConfigErrors.mustBe(K + "bootstrap_servers", "a host:port list such as kafka:9092", bootstrapServers);
        }
        bootstrapServers = bootstrapServers.replace(" ", "");
        securityProtocol = securityProtocol == null ? "PLAINTEXT" : securityProtocol.toUpperCase(Locale.ROOT);
        if (!PROTOCOLS.contains(securityProtocol)) {
            throw ConfigErrors.mustBe(K + "security_protocol", "one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL", securityProtocol);
        }
        if (saslMechanism != null) {
            saslMechanism = saslMechanism.toUpperCase(Locale.ROOT);
            if (!MECHANISMS.contains(saslMechanism)) {
                throw ConfigErrors.mustBe(K + "sasl_mechanism", "one of " + String.join(", ", MECHANISMS.stream().sorted().toList()), saslMechanism);
            }
        }
        boolean sasl = securityProtocol.startsWith("SASL_");
        if (sasl && saslMechanism == null) {
            throw ConfigErrors.invalid(K + "sasl_mechanism", "is required when security_protocol is " + securityProtocol);
        }
        if (sasl && saslJaasConfigEnv == null && !saslMechanism.equals("PLAIN") && !saslMechanism.startsWith("SCRAM-")) {
            throw ConfigErrors.invalid(K + "sasl_jaas_config_env", "is required for sasl_mechanism " + saslMechanism);
        }
        if (sasl && saslJaasConfigEnv == null && saslUsername == null) {
            throw ConfigErrors.invalid(K + "sasl_username", "is required for sasl_mechanism " + saslMechanism
                    + " (or give the whole JAAS line in sasl_jaas_config_env)");
        }
        for (String[] env : new String[][] {{"sasl_password_env", saslPasswordEnv}, {"sasl_jaas_config_env", saslJaasConfigEnv},
                {"ssl_truststore_password_env", sslTruststorePasswordEnv}, {"ssl_keystore_password_env", sslKeystorePasswordEnv},
                {"ssl_key_password_env", sslKeyPasswordEnv}}) {
            if (env[1] != null && !ENV.matcher(env[1]).matches()) {
                throw ConfigErrors.mustBe(K + env[0], "an environment variable name", env[1]);
            }
        }
        if (sessionTimeoutMs < 1000) {
            throw ConfigErrors.mustBe(K + "session_timeout_ms", "an integer >= 1000", sessionTimeoutMs);
        }
        if (deliveryTimeoutMs < 1000) {
            throw ConfigErrors.mustBe(K + "delivery_timeout_ms", "an integer >= 1000", deliveryTimeoutMs);
        }
        properties = properties == null ? Map.of() : Map.copyOf(properties);
    }

    /** Whether the connection uses TLS. */
    public boolean tls() {
        return securityProtocol.equals("SSL") || securityProtocol.equals("SASL_SSL");
    }

    public KafkaSettings withBootstrapServers(String servers) {
        return new KafkaSettings(servers, securityProtocol, saslMechanism, saslUsername, saslPasswordEnv,
                saslJaasConfigEnv, sslTruststoreLocation, sslTruststoreType, sslTruststorePasswordEnv,
                sslKeystoreLocation, sslKeystoreType, sslKeystorePasswordEnv, sslKeyPasswordEnv,
                sslEndpointIdentification, createTopics, sessionTimeoutMs, deliveryTimeoutMs, properties);
    }

    static KafkaSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        KafkaSettings d = DEFAULTS;
        return new KafkaSettings(y.string("bootstrap_servers", d.bootstrapServers),
                y.string("security_protocol", d.securityProtocol), y.string("sasl_mechanism", d.saslMechanism),
                y.string("sasl_username", d.saslUsername), y.string("sasl_password_env", d.saslPasswordEnv),
                y.string("sasl_jaas_config_env", d.saslJaasConfigEnv),
                y.string("ssl_truststore_location", d.sslTruststoreLocation),
                y.string("ssl_truststore_type", d.sslTruststoreType),
                y.string("ssl_truststore_password_env", d.sslTruststorePasswordEnv),
                y.string("ssl_keystore_location", d.sslKeystoreLocation),
                y.string("ssl_keystore_type", d.sslKeystoreType),
                y.string("ssl_keystore_password_env", d.sslKeystorePasswordEnv),
                y.string("ssl_key_password_env", d.sslKeyPasswordEnv),
                y.string("ssl_endpoint_identification", d.sslEndpointIdentification),
                y.bool("create_topics", d.createTopics), y.integer("session_timeout_ms", d.sessionTimeoutMs, 1),
                y.integer("delivery_timeout_ms", d.deliveryTimeoutMs, 1), y.stringMap("properties"));
    }

    /** Redacted: names the variables, never their values. */
    @Override
    public String toString() {
        return "KafkaSettings{bootstrap=" + bootstrapServers + ", security_protocol=" + securityProtocol
                + (saslMechanism == null ? "" : ", sasl=" + saslMechanism + (saslUsername == null ? "" : " as " + saslUsername))
                + (sslTruststoreLocation == null ? "" : ", truststore=" + sslTruststoreLocation)
                + (sslKeystoreLocation == null ? "" : ", keystore=" + sslKeystoreLocation)
                + ", extra properties=" + properties.keySet() + "}";
    }
}
