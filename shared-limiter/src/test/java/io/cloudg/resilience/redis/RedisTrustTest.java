package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratelimit.redis.ca_file} and {@code trust_store}: read for the Redis connection only, every problem with
 * the file refused naming the key and the file. (A real TLS Redis trusting a private CA: the CLI's
 * RedisTlsTest.)
 */
class RedisTrustTest {
    /** A self-signed CA certificate (public part only: nothing is signed with it here). */
    static final String CA_PEM = """
            -----BEGIN CERTIFICATE-----
            MIIBmTCCAT+gAwIBAgIUOTAhbwm2bgiOr/U81kTZHdZPzA8wCgYIKoZIzj0EAwIw
            ITEfMB0GA1UEAwwWY2xvdWRnIHRlc3QgZml4dHVyZSBDQTAgFw0yNjEyMDQxMzI4
            NDdaGA8yMTI2MTExMDEzMjg0N1owITEfMB0GA1UEAwwWY2xvdWRnIHRlc3QgZml4
            dHVyZSBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABC3rOeeYy7Zorfwfxk81
            WwdPChqXQgY8ramExLpjSzD5EhbToimYGipi+WLZDMe4rE4gg+SDDUlzgq6tY5y8
            ME+jUzBRMB0GA1UdDgQWBBTKgDmXru2C8NCWy6v0NNsqFafaozAfBgNVHSMEGDAW
            gBTKgDmXru2C8NCWy6v0NNsqFafaozAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49
            BAMCA0gAMEUCIQD0G/kfVM9M/ZuqVKu/FQ44nMPcjHf2RF72DB46HqRASgIgYCqu
            T9U8VLeNu0JgYqTq8R4XheJtzdvYJNnHFShcDRc=
            -----END CERTIFICATE-----
            """;
    static final Function<String, String> NO_ENV = k -> null;

    @TempDir
    Path dir;

    static RedisSettings.Builder tls() {
        return RedisSettings.builder().url("rediss://redis.internal:6380");
    }

    @Test
    void aPemBundleIsTrustedForRedisOnly() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "some text before\n" + CA_PEM + CA_PEM);
        RedisSettings s = tls().caFile(ca.toString()).build();
        assertThat(RedisTrust.fromPem(ca).size()).isEqualTo(2);
        assertThat(RedisTrust.trustManagers(s, NO_ENV)).isNotNull();
        assertThat(RedisTrust.trustManagers(tls().build(), NO_ENV)).as("no CA set: the JVM's trust store").isNull();
        assertThat(s.trustSource()).isEqualTo("ratelimit.redis.ca_file " + ca);
    }

    @Test
    void aCaFileThatCannotBeUsedIsRefusedNamingTheKeyAndTheFile() throws Exception {
        Path missing = dir.resolve("missing.pem");
        assertThatThrownBy(() -> RedisTrust.trustManagers(tls().caFile(missing.toString()).build(), NO_ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.redis.ca_file: cannot read " + missing + ": no such file");
        assertThatThrownBy(() -> RedisTrust.trustManagers(tls().caFile(dir.toString()).build(), NO_ENV))
                .hasMessageStartingWith("ratelimit.redis.ca_file: cannot read " + dir + ": ");
        Path key = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n");
        assertThatThrownBy(() -> RedisTrust.trustManagers(tls().caFile(key.toString()).build(), NO_ENV))
                .hasMessage("ratelimit.redis.ca_file: " + key + " holds no certificate: expected PEM (-----BEGIN CERTIFICATE-----)");
        Path empty = Files.writeString(dir.resolve("empty.pem"), "");
        assertThatThrownBy(() -> RedisTrust.trustManagers(tls().caFile(empty.toString()).build(), NO_ENV))
                .hasMessageContaining("holds no certificate");
    }

    @Test
    void aTrustStoreIsOpenedWithThePasswordItsVariableHolds() throws Exception {
        Path store = dir.resolve("trust.p12");
        writeStore(store, "PKCS12", "changeit");
        RedisSettings s = tls().trustStore(store.toString()).trustStorePasswordEnv("REDIS_TRUST_PW").build();
        assertThat(RedisTrust.trustManagers(s, Map.of("REDIS_TRUST_PW", "changeit")::get)).isNotNull();

        assertThatThrownBy(() -> RedisTrust.trustManagers(s, Map.of("REDIS_TRUST_PW", "wrong")::get))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.redis.trust_store: cannot open " + store + ": the password is wrong (its password "
                        + "comes from ratelimit.redis.trust_store_password_env)");
        assertThatThrownBy(() -> RedisTrust.trustManagers(s, NO_ENV))
                .hasMessage("ratelimit.redis.trust_store_password_env must be the name of a set environment variable, "
                        + "but was \"REDIS_TRUST_PW\"");
        Path jks = dir.resolve("trust.jks");
        writeStore(jks, "JKS", "changeit");
        assertThat(RedisTrust.trustManagers(tls().trustStore(jks.toString()).build(), NO_ENV))
                .as("a JKS store's certificates are readable without its password").isNotNull();
    }

    @Test
    void aTrustStoreThatCannotBeUsedIsRefusedNamingTheKeyAndTheFile() throws Exception {
        Path missing = dir.resolve("missing.p12");
        assertThatThrownBy(() -> RedisTrust.trustManagers(tls().trustStore(missing.toString()).build(), NO_ENV))
                .hasMessage("ratelimit.redis.trust_store: cannot read " + missing + ": no such file");
        Path pem = Files.writeString(dir.resolve("ca.pem"), CA_PEM);
        assertThatThrownBy(() -> RedisTrust.trustManagers(tls().trustStore(pem.toString()).build(), NO_ENV))
                .hasMessage("ratelimit.redis.trust_store: " + pem + " is not a PKCS12 or JKS store");
    }

    @Test
    void caSettingsAreHonouredOrRefusedNeverIgnored() {
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    url: redis://r:6379\n    ca_file: /ca.pem"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.redis.ca_file: is set, but the connection has no TLS (redis://r:6379): use "
                        + "rediss:// in ratelimit.redis.url or --redis");
        RateLimitConfig noUrlYet = RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    ca_file: /ca.pem");
        assertThat(noUrlYet.withRedisUrl("rediss://r:6380").redis().caFile()).isEqualTo("/ca.pem");
        assertThatThrownBy(() -> noUrlYet.withRedisUrl("redis://r:6379"))
                .hasMessageStartingWith("ratelimit.redis.ca_file: is set, but the connection has no TLS");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    ca_file: /ca.pem\n    trust_store: /t.p12"))
                .hasMessage("ratelimit.redis.ca_file: cannot be combined with ratelimit.redis.trust_store: give the CA one way");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    trust_store_password_env: PW"))
                .hasMessage("ratelimit.redis.trust_store_password_env: is set without ratelimit.redis.trust_store");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    trust_store: /t.p12\n    trust_store_password_env: 1PW"))
                .hasMessage("ratelimit.redis.trust_store_password_env must be an environment variable name, but was \"1PW\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    ca_file: \" \""))
                .hasMessage("ratelimit.redis.ca_file must be the path of a PEM file, but was \" \"");
    }

    private static void writeStore(Path file, String type, String password) throws Exception {
        Certificate cert = CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(CA_PEM.getBytes(StandardCharsets.US_ASCII)));
        KeyStore ks = KeyStore.getInstance(type);
        ks.load(null, null);
        ks.setCertificateEntry("ca", cert);
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, password.toCharArray());
        }
    }
}
