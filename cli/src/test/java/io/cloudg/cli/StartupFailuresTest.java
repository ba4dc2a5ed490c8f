package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.local.FreePorts;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.junit.jupiter.api.AfterAll;
import redis.embedded.RedisServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command, with every kind of bad input it can get, cannot start: exit code 2 and one line on stderr
 * that names the problem, never a stack trace. Real servers where a server is involved (Redis, Kafka), and
 * real closed ports.
 *
 * <p>The secure Kafka and the TLS Redis (a KRaft node, a redis-server; seconds each on a loaded machine) start at
 * once in the background while the cases that need no server run; the cases that use them run last and wait for
 * them ({@link #servers()}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StartupFailuresTest {
    static final Pattern FRAME = Pattern.compile("^\\s+at [\\w.$]+\\(.*$|^Caused by:|^Exception in", Pattern.MULTILINE);
    /** The cases that use the secure Kafka or the TLS Redis: after the others (unordered cases are {@link Order#DEFAULT}). */
    static final int WITH_SERVERS = Order.DEFAULT + 1;

    static CompletableFuture<TestSecureKafka> secureKafkaStarting;
    static CompletableFuture<TestTlsRedis> securedStarting;
    static TestSecureKafka secureKafka;
    static KafkaClusterTestKit kafka;
    static RedisServer redis;
    static String redisUrl;
    /** A Redis that requires a password and serves TLS with a private CA's certificate. */
    static TestTlsRedis secured;
    @TempDir
    static Path certs;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServers() throws Exception {
        // SLF4J set up before the servers' threads log: set up by the first case's command and a starting server at
        // once, it replays the calls it held and says so on the stderr that case reads ("SLF4J(W): A number (2) of
        // logging calls during the initialization phase have been intercepted")
        org.slf4j.LoggerFactory.getILoggerFactory();
        // a thread each, not the common pool: both block on servers starting (a KRaft node, redis-server) for seconds
        secureKafkaStarting = CompletableFuture.supplyAsync(() -> start(() -> TestSecureKafka.start(certs.resolve("kafka"))),
                r -> Thread.ofPlatform().name("secure-kafka-start").start(r));
        securedStarting = CompletableFuture.supplyAsync(() -> start(() -> TestTlsRedis.start(certs.resolve("redis"))),
                r -> Thread.ofPlatform().name("tls-redis-start").start(r));
        int port = FreePorts.next();
        redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").setting("appendonly no").build();
        redis.start();
        redisUrl = "redis://127.0.0.1:" + port;
    }

    static <T> T start(java.util.concurrent.Callable<T> server) {
        try {
            return server.call();
        } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    /** Waits for the secure Kafka and the TLS Redis started in the background, and fails if one could not start. */
    static void servers() throws Exception {
        secureKafka = secureKafkaStarting.get();
        kafka = secureKafka.kit();
        secured = securedStarting.get();
    }

    @AfterAll
    static void stop() throws Exception {
        if (redis != null) {
            redis.stop();
        }
        // whether a test waited for them or not: a server still starting is stopped once it started
        if (securedStarting != null) {
            try {
                securedStarting.join().close();
            } catch (java.util.concurrent.CompletionException notStarted) {
                // nothing to stop; the test that needed it failed with the reason
            }
        }
        if (secureKafkaStarting != null) {
            try {
                secureKafkaStarting.join().close();
            } catch (java.util.concurrent.CompletionException notStarted) {
                // as above
            }
        }
    }

    /** Runs the command line and checks it could not start with one line that contains every {@code expected}. */
    static String cannotStart(String[] args, String... expected) {
        MapCommandTest.Run r = MapCommandTest.run(args);
        String cmd = String.join(" ", args);
        assertThat(r.code()).as("%s exit code; stderr:%n%s", cmd, r.err()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(FRAME.matcher(r.err()).find()).as("%s printed a stack trace:%n%s", cmd, r.err()).isFalse();
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as("%s: exactly one line on stderr, no log line before it", cmd).hasSize(1);
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        assertThat(last).as("%s: the last line says why", cmd).matches("^cloudg( sim)?: .*").contains(expected);
        assertThat(last.length()).as("%s: one short line", cmd).isLessThan(420);
        return last;
    }

    static String[] args(String... a) {
        return Arrays.copyOf(a, a.length);
    }

    Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void map() throws Exception {
        int closed = FreePorts.next();
        cannotStart(args("map", "--regionz", "all"), "Unknown option", "--regionz");
        cannotStart(args("map", "-p", "aws", "--config", dir.resolve("nope.yaml").toString()), "--config must be an existing file");
        cannotStart(args("map", "-p", "aws", "--config", file("bad.yaml", "aws: {max_retries: ten}\n").toString()),
                "aws.max_retries must be an integer, but was \"ten\"");
        cannotStart(args("map", "-p", "aws", "--config", file("yaml.yaml", "aws: {regions: [us-east-1\n").toString()),
                "the YAML could not be read", "line");
        cannotStart(args("map", "-p", "aws", "--config", file("env.yaml", "aws: {role_name: \"${CLOUDG_TEST_UNSET_ROLE}\"}\n")
                .toString()), "aws.role_name: ${CLOUDG_TEST_UNSET_ROLE} is not set in the environment");
        cannotStart(args("map", "--out", dir.toString()), "no provider to map");
        cannotStart(args("map", "-p", "aws", "--config", file("closed.yaml", "aws: {endpoint_url: \"http://127.0.0.1:"
                + closed + "\", access_key_id: a, secret_access_key: b}\n").toString(), "--out", dir.toString()),
                "cannot reach aws.endpoint_url http://127.0.0.1:" + closed);
        cannotStart(args("map", "-p", "aws", "--config", file("redis.yaml", "ratelimit: {backend: redis}\n").toString()),
                "ratelimit.redis.url: is not set, and ratelimit.backend is redis");
        cannotStart(args("map", "--sim", "-p", "aws", "--redis", "redis://127.0.0.1:" + closed, "--out", dir.toString()),
                "cannot reach Redis at redis://127.0.0.1:" + closed);
        cannotStart(args("map", "--sim", "--sim-estate", file("estate.yaml", "aws: {acounts: 3}\n").toString()), "acounts");
        cannotStart(args("map", "--distributed", "-p", "aws"), "ratelimit.backend", "--redis");
        cannotStart(args("map", "--distributed", "-p", "aws", "--redis", redisUrl, "--kafka", "127.0.0.1:" + closed),
                "cannot reach Kafka at 127.0.0.1:" + closed);
        assertThat(dir.toFile().list()).as("a failed start writes nothing in the output directory")
                .allMatch(n -> n.endsWith(".yaml"));
    }

    /**
     * What a map logs while it starts (the learned rates it loaded, the simulator it started) is held back: a
     * start that fails prints its one line only, a warning of the configuration inside it; a map that starts
     * prints them all.
     */
    @Test
    void aFailedStartPrintsItsOneLineAndNoLogLineBeforeIt() throws Exception {
        Path rates = dir.resolve("learned-rates.json");
        new io.cloudg.resilience.memory.LearnedRatesFile(rates).merge(List.of(new io.cloudg.resilience.memory.LearnedRate(
                "aws:123456789012@aws", io.cloudg.resilience.spi.Scope.of("aws", "123456789012", "us-east-1", "ec2",
                "DescribeSubnets"), 5, 20, 3, System.currentTimeMillis())), java.util.Map.of(), System.currentTimeMillis(),
                3_600_000L);
        int closed = FreePorts.next();
        String cfg = file("learned.yaml", "ratelimit: {state_file: \"" + rates + "\"}\naws: {endpoint_url: \"http://127.0.0.1:"
                + closed + "\", access_key_id: a, secret_access_key: b}\n").toString();
        cannotStart(args("map", "-p", "aws", "--config", cfg, "--out", dir.toString()),
                "cannot reach aws.endpoint_url http://127.0.0.1:" + closed);
        String typo = file("typo.yaml", "ratelimit: {redis: {ca_flie: /etc/ca.pem}}\n").toString();
        String line = cannotStart(args("map", "--sim", "-p", "aws", "--config", typo, "--redis", "redis://127.0.0.1:" + closed,
                "--out", dir.toString()), "cannot reach Redis at redis://127.0.0.1:" + closed);
        assertThat(line).as("the warning held back is in the line").endsWith(
                "[warning before: Unknown config key ratelimit.redis.ca_flie is ignored]");

        MapCommandTest.Run ok = MapCommandTest.run("map", "--sim", "--sim-estate", file("one.yaml",
                "aws: {accounts: 1, regions: [us-east-1]}\n").toString(), "-p", "aws", "--config",
                file("learned-sim.yaml", "ratelimit: {state_file: \"" + rates + "\"}\n").toString(), "--out",
                dir.resolve("ok").toString(), "--no-progress");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.err()).as("a map that started writes what it logged while starting")
                .contains("cloud-sim started at", "1 learned rate(s) from " + rates);
    }

    @Test
    @Order(WITH_SERVERS)
    void worker() throws Exception {
        servers();
        int closed = FreePorts.next();
        cannotStart(args("worker", "--kafka", "kafka"), "fleet.kafka.bootstrap_servers must be a host:port list");
        cannotStart(args("worker", "--kafka", "127.0.0.1:" + closed, "--redis", redisUrl), "cannot reach Kafka at 127.0.0.1:"
                + closed + ": connection refused (fleet.kafka.bootstrap_servers or --kafka)");
        cannotStart(args("worker", "--kafka", "no-such-host.invalid:9092," + "127.0.0.1:" + closed, "--redis", redisUrl),
                "cannot reach Kafka at no-such-host.invalid:9092: unknown host no-such-host.invalid; 127.0.0.1:" + closed
                        + ": connection refused");
        cannotStart(args("worker", "--kafka", kafka.bootstrapServers()), "ratelimit.backend", "--redis");
        cannotStart(args("worker", "--kafka", kafka.bootstrapServers(), "--redis", "redis://127.0.0.1:" + closed),
                "cannot reach Redis");
        try (ServerSocket busy = new ServerSocket(0)) {
            cannotStart(args("worker", "--kafka", kafka.bootstrapServers(), "--redis", redisUrl, "--health-port",
                    Integer.toString(busy.getLocalPort())), "port " + busy.getLocalPort() + " is in use", "--health-port");
        }
    }

    @Test
    void mcp() throws Exception {
        Path tokens = file("mcp.yaml", "mcp: {principals: {ci: {roles: [operator], token_env: CLOUDG_TEST_UNSET_TOKEN}}}\n");
        cannotStart(args("mcp", "--http", "--config", tokens.toString()),
                "mcp.principals.ci.token_env: names CLOUDG_TEST_UNSET_TOKEN, which is not set");
        cannotStart(args("mcp", "--config", file("bad.yaml", "mcp: {http: {port: 70000}}\n").toString()),
                "mcp.http.port must be an integer from 0 to 65535, but was 70000");
        Path ok = file("ok.yaml", "mcp: {principals: {ci: {roles: [operator], token: t0k3n}}}\n");
        try (ServerSocket busy = new ServerSocket(0)) {
            cannotStart(args("mcp", "--http", "--config", ok.toString(), "--port", Integer.toString(busy.getLocalPort())),
                    "cannot serve MCP on", "port " + busy.getLocalPort() + " is in use", "--port");
        }
        cannotStart(args("mcp", "--redis", "redis://127.0.0.1:" + FreePorts.next()), "cannot reach Redis");
    }

    /**
     * Every command that opens Redis, against a Redis it cannot use: a wrong password, none where one is
     * required, a password variable that is not set, a certificate no trusted CA signed, a host that does
     * not exist. Each says which, in one line naming the setting.
     */
    @Test
    @Order(WITH_SERVERS)
    void everyCommandSaysWhyItCannotUseRedis() throws Exception {
        servers();
        int port = secured.port;
        String wrong = "redis://:wrong@127.0.0.1:" + port;
        String unsetEnv = file("unset-pw.yaml", "ratelimit:\n  redis:\n    password_env: CLOUDG_TEST_UNSET_PW\n").toString();
        String tls = secured.tls("localhost", true);
        String unknown = "redis://no-such-host.invalid:6379";
        List<String[]> commands = List.of(
                args("map", "--sim", "-p", "aws", "--out", dir.toString()),
                args("map", "--distributed", "-p", "aws", "--kafka", kafka.bootstrapServers()),
                args("worker", "--kafka", kafka.bootstrapServers(), "--health-port", "0"),
                args("mcp"),
                args("ratelimit", "show"),
                args("ratelimit", "reset", "--yes"));
        for (String[] command : commands) {
            cannotStart(with(command, "--redis", wrong), "Redis at redis://127.0.0.1:" + port + " refused the password "
                    + "from the URL (ratelimit.redis.url or --redis)", "WRONGPASS");
            cannotStart(with(command, "--redis", secured.plain()), "Redis at redis://127.0.0.1:" + port
                    + " requires a password, and none is set", "CLOUDG_REDIS_PASSWORD", "ratelimit.redis.password_env");
            cannotStart(with(command, "--redis", secured.plain(), "--config", unsetEnv),
                    "ratelimit.redis.password_env must be the name of a set environment variable, but was "
                            + "\"CLOUDG_TEST_UNSET_PW\"");
            cannotStart(with(command, "--redis", tls), "the TLS certificate of Redis at rediss://localhost:"
                    + secured.tlsPort + " is not trusted", "ratelimit.redis.ca_file");
            cannotStart(with(command, "--redis", unknown), "cannot reach Redis at " + unknown + ": unknown host "
                    + "no-such-host.invalid (ratelimit.redis.url or --redis)");
        }
    }

    /**
     * The fleet's commands against a Kafka they cannot use: a refused SASL login, a password variable that
     * is not set, a trust store that is missing, locked with another password or not a store, a certificate
     * no trusted CA signed. Each is one line naming the setting, at once.
     */
    @Test
    @Order(WITH_SERVERS)
    void fleetCommandsSayWhyTheyCannotUseKafka() throws Exception {
        servers();
        String sasl = "fleet:\n  kafka:\n    bootstrap_servers: \"" + secureKafka.sasl() + "\"\n    security_protocol: SASL_PLAINTEXT\n"
                + "    sasl_mechanism: PLAIN\n    sasl_username: cloudg\n";
        String ssl = "fleet:\n  kafka:\n    bootstrap_servers: \"" + secureKafka.ssl() + "\"\n    security_protocol: SSL\n";
        Path other = TestCertificates.create(dir.resolve("other-ca")).caPem();
        java.security.KeyStore otherJks = java.security.KeyStore.getInstance("JKS");
        otherJks.load(null, null);
        try (var in = Files.newInputStream(other)) {
            otherJks.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        Path otherStore = dir.resolve("other.jks");
        try (var out = Files.newOutputStream(otherStore)) {
            otherJks.store(out, "changeit".toCharArray());
        }
        String trustStore = secureKafka.certs.trustStore().toString();
        String at = secureKafka.ssl();
        // HOME is set in every test process, and is the wrong password everywhere
        record Case(String yaml, String... expected) {
        }
        List<Case> cases = List.of(
                new Case(sasl + "    sasl_password_env: HOME\n", "Kafka at " + secureKafka.sasl() + " refused the SASL PLAIN "
                        + "login of user cloudg (fleet.kafka.sasl_username, the password in $HOME, fleet.kafka.sasl_password_env)",
                        "Authentication failed"),
                new Case(sasl + "    sasl_password_env: CLOUDG_TEST_UNSET_KPW\n",
                        "fleet.kafka.sasl_password_env must be the name of a set environment variable, but was "
                                + "\"CLOUDG_TEST_UNSET_KPW\""),
                new Case(ssl + "    ssl_truststore_location: " + dir.resolve("missing.p12") + "\n",
                        "fleet.kafka.ssl_truststore_location: cannot read " + dir.resolve("missing.p12") + ": no such file"),
                new Case(ssl + "    ssl_truststore_location: " + trustStore + "\n    ssl_truststore_password_env: HOME\n",
                        "fleet.kafka.ssl_truststore_location: cannot open " + trustStore + ": the password is wrong "
                                + "(its password comes from $HOME (fleet.kafka.ssl_truststore_password_env))"),
                new Case(ssl + "    ssl_truststore_location: " + secureKafka.certs.caPem() + "\n",
                        "fleet.kafka.ssl_truststore_location: " + secureKafka.certs.caPem() + " is not a PKCS12 store"),
                new Case(ssl, "the TLS certificate of Kafka at " + at + " is not trusted: no CA in the JVM's trust store "
                        + "signed it", "fleet.kafka.ssl_truststore_location"),
                new Case(ssl + "    ssl_truststore_location: " + otherStore + "\n    ssl_truststore_type: JKS\n",
                        "the TLS certificate of Kafka at " + at + " is not trusted: no CA in "
                                + "fleet.kafka.ssl_truststore_location " + otherStore + " signed it"));
        int i = 0;
        for (Case c : cases) {
            String cfg = file("kafka-" + i++ + ".yaml", c.yaml()).toString();
            cannotStart(args("worker", "--config", cfg, "--redis", redisUrl, "--health-port", "0"), c.expected());
            cannotStart(args("map", "--distributed", "-p", "aws", "--config", cfg, "--redis", redisUrl), c.expected());
        }
    }

    static String[] with(String[] command, String... more) {
        String[] all = Arrays.copyOf(command, command.length + more.length);
        System.arraycopy(more, 0, all, command.length, more.length);
        return all;
    }

    @Test
    void sim() throws Exception {
        try (ServerSocket busy = busyPortWithAFreeNext()) {
            cannotStart(args("sim", "--port", Integer.toString(busy.getLocalPort())), Integer.toString(busy.getLocalPort()));
        }
        cannotStart(args("sim", "--estate", file("estate.yaml", "aws: {acounts: 3}\n").toString()), "acounts");
        cannotStart(args("sim", "--portz", "1"), "portz");
    }

    /**
     * A port held busy whose next port is free: the simulator serves GCP's gRPC on {@code --port} + 1 and starts
     * that server first, so a next port some other socket of the machine happens to hold (an ephemeral port of a
     * test running beside this one) made it fail there, naming that port instead of the one given.
     */
    static ServerSocket busyPortWithAFreeNext() throws IOException {
        for (int i = 0; ; i++) {
            ServerSocket busy = new ServerSocket(0);
            try (ServerSocket next = new ServerSocket()) {
                next.setReuseAddress(false); // as strict as the simulator's own bind
                next.bind(new java.net.InetSocketAddress("127.0.0.1", busy.getLocalPort() + 1));
                return busy;
            } catch (IOException taken) {
                busy.close();
                if (i == 50) {
                    throw taken;
                }
            }
        }
    }

    @Test
    void ratelimit() throws Exception {
        cannotStart(args("ratelimit"), "ratelimit needs a subcommand: show or reset");
        cannotStart(args("ratelimit", "reset"), "without a PREFIX", "--yes");
        cannotStart(args("ratelimit", "show", "--redis", "redis://127.0.0.1:" + FreePorts.next()), "cannot reach Redis");
        cannotStart(args("ratelimit", "show", "--redis", "http://nope"), "ratelimit.redis.url", "http://nope");
        cannotStart(args("ratelimit", "show", "--config", file("none.yaml", "ratelimit: {state_file: none}\n").toString()),
                "ratelimit.state_file is none");
    }
}
