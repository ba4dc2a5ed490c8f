package io.cloudg.resilience.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.Locale;

/**
 * Reads the certificate files a configuration names (a CA in PEM, a PKCS12 or JKS trust or key store) and
 * refuses, as a {@link ConfigException} naming the key and the file, one that cannot be used: missing,
 * unreadable, not a certificate or store, a wrong password, no certificate in it. What the Redis and Kafka
 * connections check at start, before a TLS library meets the file and fails with a stack trace.
 */
public final class CertificateFiles {
    private CertificateFiles() {
    }

    /**
     * Every certificate of a PEM file (a bundle may hold several), as the trust anchors of an in-memory store.
     *
     * @param key the setting that names the file, for messages ({@code ratelimit.redis.ca_file})
     */
    public static KeyStore pem(Path file, String key) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw ConfigErrors.invalid(key, "cannot read " + file + ": " + ConfigErrors.fileReason(e));
        }
        Collection<? extends Certificate> certs;
        try {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes));
        } catch (CertificateException e) {
            certs = Collections.emptyList();
        }
        if (certs.isEmpty()) {
            throw ConfigErrors.invalid(key, file + " holds no certificate: expected PEM (-----BEGIN CERTIFICATE-----)");
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

    /**
     * A PKCS12 or JKS store that must hold at least one certificate.
     *
     * @param type {@code PKCS12} or {@code JKS}, or null to detect it from the file
     * @param password its password, or null to open it without one
     * @param key the setting that names the file ({@code fleet.kafka.ssl_truststore_location})
     * @param passwordKey where the password comes from ({@code $VAR (fleet.kafka.ssl_truststore_password_env)}),
     *        named when it is wrong or missing
     */
    public static KeyStore store(Path file, String type, char[] password, String key, String passwordKey) {
        if (!Files.isRegularFile(file)) {
            throw ConfigErrors.invalid(key, "cannot read " + file + ": " + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        KeyStore ks;
        try {
            if (type == null) {
                ks = KeyStore.getInstance(file.toFile(), password);
            } else {
                ks = KeyStore.getInstance(type.toUpperCase(Locale.ROOT));
                try (InputStream in = Files.newInputStream(file)) {
                    ks.load(in, password);
                }
            }
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw ConfigErrors.invalid(key, "cannot open " + file + ": the password is wrong (its password comes from "
                        + passwordKey + ")");
            }
            if (e.getMessage() != null && !(e instanceof java.nio.file.FileSystemException)) {
                throw ConfigErrors.invalid(key, file + " is not a " + (type == null ? "PKCS12 or JKS" : type) + " store ("
                        + e.getMessage() + ")");
            }
            throw ConfigErrors.invalid(key, "cannot read " + file + ": " + ConfigErrors.fileReason(e));
        } catch (GeneralSecurityException e) {
            throw ConfigErrors.invalid(key, file + " is not a " + (type == null ? "PKCS12 or JKS store"
                    : type + " store (" + e.getMessage() + ")"));
        }
        try {
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.getCertificate(alias) != null) {
                    return ks;
                }
            }
        } catch (GeneralSecurityException e) {
            // reported below as holding nothing usable
        }
        throw ConfigErrors.invalid(key, file + " holds no certificate" + (password == null
                ? " readable without a password: set " + passwordKey : ""));
    }
}
