package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.RedisSettings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Collections;
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

    /** Every certificate of a PEM file (a bundle may hold several), as trust anchors. */
    static KeyStore fromPem(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw ConfigErrors.invalid(CA_FILE, "cannot read " + file + ": " + ConfigErrors.fileReason(e));
        }
        Collection<? extends Certificate> certs;
        try {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes));
        } catch (CertificateException e) {
            certs = Collections.emptyList();
        }
        if (certs.isEmpty()) {
            throw ConfigErrors.invalid(CA_FILE, file + " holds no certificate: expected PEM (-----BEGIN CERTIFICATE-----)");
        }
        try {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the JVM cannot hold certificates in memory: " + e.getMessage(), e);
        }
    }

    /** A PKCS12 or JKS file (the type is detected), which must hold at least one trusted certificate. */
    static KeyStore fromStore(Path file, char[] password) {
        if (!Files.isRegularFile(file)) {
            throw ConfigErrors.invalid(TRUST_STORE, "cannot read " + file + ": "
                    + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        KeyStore ks;
        try {
            ks = KeyStore.getInstance(file.toFile(), password);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw ConfigErrors.invalid(TRUST_STORE, "cannot open " + file + ": the password is wrong (its password "
                        + "comes from ratelimit.redis.trust_store_password_env)");
            }
            throw ConfigErrors.invalid(TRUST_STORE, "cannot read " + file + ": " + ConfigErrors.fileReason(e));
        } catch (GeneralSecurityException e) {
            throw ConfigErrors.invalid(TRUST_STORE, file + " is not a PKCS12 or JKS trust store (" + e.getMessage() + ")");
        }
        try {
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isCertificateEntry(alias) || ks.getCertificate(alias) != null) {
                    return ks;
                }
            }
        } catch (GeneralSecurityException e) {
            // reported below as holding nothing usable
        }
        throw ConfigErrors.invalid(TRUST_STORE, file + " holds no certificate" + (password == null
                ? " readable without a password: set ratelimit.redis.trust_store_password_env" : ""));
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
