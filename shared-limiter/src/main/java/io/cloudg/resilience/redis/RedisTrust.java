package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.CertificateFiles;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.RedisSettings;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.function.Function;
import javax.net.ssl.TrustManagerFactory;

/**
 * Whom a {@code rediss://} connection trusts: the CA certificates of {@code ratelimit.redis.ca_file} (PEM) or
 * {@code ratelimit.redis.trust_store} (PKCS12 or JKS), for the Redis connections only, so a private CA never has
 * to be added to the JVM's trust store (which the cloud SDKs verify their endpoints with); without either, the
 * JVM's. Every problem with the file is a {@link io.cloudg.resilience.config.ConfigException} naming the key
 * and the file: missing, unreadable, not a certificate, a wrong password.
 */
final class RedisTrust {
    private static final String CA_FILE = "ratelimit.redis.ca_file";
    private static final String TRUST_STORE = "ratelimit.redis.trust_store";

    private RedisTrust() {
    }

    /** The trust managers for {@code s}'s TLS connections, or null to use the JVM's trust store. */
    static TrustManagerFactory trustManagers(RedisSettings s, Function<String, String> env) {
        if (!s.tls() || (s.caFile() == null && s.trustStore() == null)) {
            return null;
        }
        KeyStore anchors = s.caFile() != null ? fromPem(Path.of(s.caFile()))
                : fromStore(Path.of(s.trustStore()), password(s, env));
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(anchors);
            return f;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM cannot build trust managers: " + e.getMessage(), e);
        }
    }

    static KeyStore fromPem(Path file) {
        return CertificateFiles.pem(file, CA_FILE);
    }

    static KeyStore fromStore(Path file, char[] password) {
        return CertificateFiles.store(file, null, password, TRUST_STORE, "ratelimit.redis.trust_store_password_env");
    }

    private static char[] password(RedisSettings s, Function<String, String> env) {
        String name = s.trustStorePasswordEnv();
        if (name == null) {
            return null;
        }
        String v = env.apply(name);
        if (v == null || v.isEmpty()) {
            throw ConfigErrors.mustBe("ratelimit.redis.trust_store_password_env", "the name of a set environment variable", name);
        }
        return v.toCharArray();
    }
}
