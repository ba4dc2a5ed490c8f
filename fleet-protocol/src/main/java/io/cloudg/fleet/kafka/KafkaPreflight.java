package io.cloudg.fleet.kafka;

import io.cloudg.fleet.KafkaSettings;
import io.cloudg.resilience.config.CertificateFiles;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.TlsProblem;
import io.cloudg.run.Endpoints;
import io.cloudg.config.StartupException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;

/**
 * What a process checks before its first Kafka client, and how a failed first contact is worded: the trust and
 * key stores {@code fleet.kafka} names are read first ({@link CertificateFiles}: missing, unreadable, a wrong
 * password, no certificate, each a {@link io.cloudg.resilience.config.ConfigException} naming the key), so the
 * Kafka client never meets them and fails with a stack trace; and {@link #explain} turns what the first
 * request failed with into one line naming the setting: a refused SASL login, a mechanism the broker does not
 * offer, a certificate no trusted CA signed or that names another host, a principal without rights.
 * Authentication failures are final in the Kafka client, so they end the start at once.
 */
final class KafkaPreflight {
    private static final String K = "fleet.kafka.";
    private static final String SERVERS = "fleet.kafka.bootstrap_servers or --kafka";

    private KafkaPreflight() {
    }

    /**
     * Connects to the bootstrap servers, one after the other, until one takes the connection: a closed port or
     * an unknown host on every one of them ends the start at once, instead of the client's retries until its
     * timeout.
     */
    static void checkConnect(KafkaSettings s) {
        List<String> failures = new ArrayList<>();
        for (String server : s.bootstrapServers().split(",")) {
            int colon = server.lastIndexOf(':');
            String host = server.substring(0, colon);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, Integer.parseInt(server.substring(colon + 1))),
                        Endpoints.CONNECT_TIMEOUT_MS);
                return;
            } catch (UnknownHostException e) {
                failures.add(server + ": unknown host " + host);
            } catch (IOException e) {
                failures.add(server + ": " + (e.getMessage() == null ? e.getClass().getSimpleName()
                        : e.getMessage().toLowerCase(Locale.ROOT)));
            }
        }
        throw new StartupException("cannot reach Kafka at " + String.join("; ", failures) + " (" + SERVERS + ")");
    }

    /** Reads the stores {@code s} names (TLS only). */
    static void checkStores(KafkaSettings s, Function<String, String> env) {
        if (!s.tls()) {
            return;
        }
        if (s.sslTruststoreLocation() != null) {
            check(s.sslTruststoreLocation(), s.sslTruststoreType(), s.sslTruststorePasswordEnv(), "ssl_truststore", env);
        }
        if (s.sslKeystoreLocation() != null) {
            check(s.sslKeystoreLocation(), s.sslKeystoreType(), s.sslKeystorePasswordEnv(), "ssl_keystore", env);
        }
    }

    private static void check(String location, String type, String passwordEnv, String what, Function<String, String> env) {
        Path file = Path.of(location);
        String key = K + what + "_location";
        if ("PEM".equalsIgnoreCase(type)) {
            if (what.equals("ssl_truststore")) {
                CertificateFiles.pem(file, key);
            }
            return;
        }
        String password = passwordEnv == null ? null : env.apply(passwordEnv);
        String source = passwordEnv == null ? K + what + "_password_env"
                : "$" + passwordEnv + " (" + K + what + "_password_env)";
        CertificateFiles.store(file, type, password == null || password.isEmpty() ? null : password.toCharArray(), key, source);
    }

    /** The one line for the first request's failure {@code cause}, naming the setting to look at. */
    static String explain(KafkaSettings s, Throwable cause) {
        String at = "Kafka at " + s.bootstrapServers();
        Throwable sasl = find(cause, SaslAuthenticationException.class);
        if (sasl != null) {
            return at + " refused the SASL " + s.saslMechanism() + " login " + credentials(s) + ": " + oneLine(sasl.getMessage());
        }
        Throwable mechanism = find(cause, UnsupportedSaslMechanismException.class);
        if (mechanism != null) {
            return at + " does not offer SASL mechanism " + s.saslMechanism() + " (" + K + "sasl_mechanism): "
                    + oneLine(mechanism.getMessage());
        }
        TlsProblem tls = TlsProblem.of(cause);
        if (tls != null) {
            return tlsFailure(s, at, tls, cause);
        }
        Throwable denied = find(cause, AuthorizationException.class);
        if (denied != null) {
            return at + " refused " + principal(s) + ": " + oneLine(denied.getMessage()) + " (its ACLs must allow "
                    + "describing the cluster)";
        }
        return "cannot reach " + at + ": " + causes(cause) + " (" + SERVERS + ")";
    }

    /** The first and the last message of {@code t}'s causes: what failed, and why underneath. */
    static String causes(Throwable t) {
        Throwable root = t;
        for (int i = 0; root.getCause() != null && i < 20; i++) {
            root = root.getCause();
        }
        return oneLine(message(t)) + (root != t && !message(root).equals(message(t)) ? " (" + oneLine(message(root)) + ")" : "");
    }

    private static String tlsFailure(KafkaSettings s, String at, TlsProblem tls, Throwable cause) {
        String store = s.sslTruststoreLocation();
        return switch (tls) {
            case UNTRUSTED -> store == null
                    ? "the TLS certificate of " + at + " is not trusted: no CA in the JVM's trust store signed it; give a "
                            + "trust store holding the CA in " + K + "ssl_truststore_location"
                    : "the TLS certificate of " + at + " is not trusted: no CA in " + K + "ssl_truststore_location "
                            + store + " signed it";
            case WRONG_HOST -> "the TLS certificate of " + at + " does not name the broker's host (" + SERVERS
                    + "; the brokers' advertised.listeners)";
            case EXPIRED -> "the TLS certificate of " + at + " is outside its validity period ("
                    + oneLine(TlsProblem.message(cause)) + ")";
            case CLIENT_CERTIFICATE -> at + " asks for a client certificate: set " + K + "ssl_keystore_location";
            default -> "the TLS handshake with " + at + " failed: " + oneLine(TlsProblem.message(cause)) + " ("
                    + K + "security_protocol " + s.securityProtocol() + ")";
        };
    }

    /** Where the login came from, never the secret: {@code of user cloudg (fleet.kafka.sasl_username, ...)}. */
    private static String credentials(KafkaSettings s) {
        if (s.saslJaasConfigEnv() != null) {
            return "(the JAAS line in $" + s.saslJaasConfigEnv() + ", " + K + "sasl_jaas_config_env)";
        }
        return "of user " + s.saslUsername() + " (" + K + "sasl_username, the password in $" + s.saslPasswordEnv() + ", "
                + K + "sasl_password_env)";
    }

    private static String principal(KafkaSettings s) {
        return s.saslUsername() != null ? "user " + s.saslUsername() : "this client ("
                + s.securityProtocol().toLowerCase(Locale.ROOT) + ")";
    }

    private static Throwable find(Throwable t, Class<? extends Throwable> type) {
        int depth = 0;
        for (Throwable e = t; e != null && depth++ < 20; e = e.getCause()) {
            if (type.isInstance(e)) {
                return e;
            }
        }
        return null;
    }

    private static String message(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    private static String oneLine(String m) {
        if (m == null) {
            return "";
        }
        String s = m.replaceAll("\\s*\\R\\s*", " ").trim();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /** The variable {@code variable} (named by {@code key}) must be set: a secret is never silently dropped. */
    static String requiredSecret(String variable, String key, Function<String, String> env) {
        if (variable == null) {
            throw ConfigErrors.invalid(K + key, "is required: name the environment variable that holds the secret");
        }
        String v = env.apply(variable);
        if (v == null || v.isEmpty()) {
            throw ConfigErrors.mustBe(K + key, "the name of a set environment variable", variable);
        }
        return v;
    }
}
