package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Redis behind TLS whose certificate a private CA signed: trusted through {@code ratelimit.redis.ca_file}
 * (or a trust store) for Redis only, refused in one line without it. A real redis-server with
 * {@code tls-port}, the CA and certificate made by the test.
 */
class RedisTlsTest {
    @TempDir
    static Path certDir;
    static TestTlsRedis redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        redis = TestTlsRedis.start(certDir);
    }

    @AfterAll
    static void stop() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    Path config(String redisBlock) throws Exception {
        return Files.writeString(dir.resolve("cloudg.yaml"), "ratelimit:\n  redis:\n" + redisBlock);
    }

    @Test
    void theCaFileMakesTheServerTrustedAndEveryCommandWorks() throws Exception {
        Path cfg = config("    ca_file: " + redis.certs.caPem() + "\n");
        MapCommandTest.Run show = MapCommandTest.run("ratelimit", "show", "--config", cfg.toString(),
                "--redis", redis.tls("localhost", true));
        assertThat(show.code()).as(show.err()).isZero();
        assertThat(show.out()).contains("learned state in Redis rediss://localhost:" + redis.tlsPort);

        Path estate = Files.writeString(dir.resolve("estate.yaml"), "aws: {accounts: 1, regions: [us-east-1]}\n");
        MapCommandTest.Run map = MapCommandTest.run("map", "--sim", "--sim-estate", estate.toString(), "-p", "aws",
                "--config", cfg.toString(), "--redis", redis.tls("localhost", true), "--out", dir.toString(), "--no-progress");
        assertThat(map.code()).as(map.err()).isEqualTo(ExitCodes.OK);
        com.fasterxml.jackson.databind.JsonNode run = new ObjectMapper().readTree(dir.resolve("inventory-map.json").toFile())
                .get("run");
        assertThat(run.get("governor").asText()).as("the map's governor was the TLS Redis").isEqualTo("redis");
        assertThat(run.get("governor_store").asText()).startsWith("rediss://localhost:" + redis.tlsPort);
        assertThat(run.at("/learned_rates/redis").asText()).as("the learned state it used: Redis's, of the simulator's estate")
                .startsWith("rediss://localhost:" + redis.tlsPort);
        assertThat(run.at("/learned_rates/estates/0/estate").asText()).startsWith("aws:").contains("@http://");
    }

    @Test
    void aTrustStoreWithItsPasswordWorksToo() throws Exception {
        // the password comes from an environment variable; this process cannot set one, so the store is
        // locked with the value of one every test process has
        String home = System.getenv("HOME");
        org.junit.jupiter.api.Assumptions.assumeTrue(home != null && !home.isEmpty(), "HOME is set");
        java.security.KeyStore ks = java.security.KeyStore.getInstance(redis.certs.trustStore().toFile(),
                TestCertificates.PASSWORD.toCharArray());
        Path store = dir.resolve("home-locked.p12");
        try (java.io.OutputStream out = Files.newOutputStream(store)) {
            ks.store(out, home.toCharArray());
        }
        Path cfg = config("    trust_store: " + store + "\n    trust_store_password_env: HOME\n");
        MapCommandTest.Run show = MapCommandTest.run("ratelimit", "show", "--config", cfg.toString(),
                "--redis", redis.tls("localhost", true));
        assertThat(show.code()).as(show.err()).isZero();
    }

    @Test
    void withoutTheCaTheCertificateIsNotTrustedInOneLine() throws Exception {
        String line = StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--redis",
                redis.tls("localhost", true)), "the TLS certificate of Redis at rediss://localhost:" + redis.tlsPort,
                "is not trusted", "ratelimit.redis.ca_file");
        assertThat(line).doesNotContain(TestTlsRedis.PASSWORD);
        Path otherCa = TestCertificates.create(dir.resolve("other")).caPem();
        StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--config",
                config("    ca_file: " + otherCa + "\n").toString(), "--redis", redis.tls("localhost", true)),
                "is not trusted: the CA in ratelimit.redis.ca_file " + otherCa + " did not sign it");
    }

    @Test
    void aCertificateForAnotherNameIsToldApart() throws Exception {
        Path cfg = config("    ca_file: " + redis.certs.caPem() + "\n");
        StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--config", cfg.toString(),
                "--redis", redis.tls("127.0.0.1", true)), "does not name host 127.0.0.1", "ratelimit.redis.url");
    }

    @Test
    void aCaFileThatCannotBeUsedIsOneLineNamingTheKey() throws Exception {
        String tls = redis.tls("localhost", true);
        StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--config",
                config("    ca_file: " + dir.resolve("nope.pem") + "\n").toString(), "--redis", tls),
                "ratelimit.redis.ca_file: cannot read " + dir.resolve("nope.pem") + ": no such file");
        Path notCert = Files.writeString(dir.resolve("not.pem"), "hello\n");
        StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--config",
                config("    ca_file: " + notCert + "\n").toString(), "--redis", tls),
                "ratelimit.redis.ca_file: " + notCert + " holds no certificate");
        StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--config",
                config("    ca_file: " + redis.certs.caPem() + "\n").toString(), "--redis", redis.plain()),
                "ratelimit.redis.ca_file: is set, but the connection has no TLS");
        StartupFailuresTest.cannotStart(StartupFailuresTest.args("ratelimit", "show", "--config",
                config("    trust_store: " + redis.certs.trustStore() + "\n    trust_store_password_env: CLOUDG_TEST_UNSET_PW\n")
                        .toString(), "--redis", tls),
                "ratelimit.redis.trust_store_password_env must be the name of a set environment variable");
    }
}
