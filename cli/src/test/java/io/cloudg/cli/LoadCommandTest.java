package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.fleet.local.FreePorts;
import io.cloudg.inventory.RunFiles;
import io.cloudg.resilience.testkit.Poll;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.testkit.MapSchema;
import io.cloudg.testkit.RunRows;
import io.cloudg.testkit.TestPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudg load} as an operator uses it: a map whose PostgreSQL went away mid-run (a real server,
 * stopped while the map streams into it) is on disk and its run row stays {@code running}; once the server is
 * back, {@code load} puts the run in, the same rows as a load into an empty schema, and a second load changes
 * nothing. And the one-line refusals: no such path, not a cloudg map, a schema of a newer cloudg, a database
 * that cannot be reached, nothing to load into; a run that never wrote its map marked failed.
 */
class LoadCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    EmbeddedPostgres pg;

    @AfterEach
    void stop() throws IOException {
        if (pg != null) {
            pg.close();
        }
        MapSchema.assertEveryMapValid(dir);
    }

    /** A PostgreSQL of this test's own, its data kept in {@code data} across a stop and a start. */
    static EmbeddedPostgres start(Path data, int port) throws IOException {
        return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port)
                .setRegisterShutdownHook(true).start();
    }

    static long count(String jdbc, String sql) {
        try (Connection c = DriverManager.getConnection(jdbc); Statement st = c.createStatement();
             java.sql.ResultSet r = st.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        } catch (SQLException notYet) {
            return -1; // the schema is not created yet
        }
    }

    @Test
    void aMapWrittenWhileTheDatabaseWasDownIsLoadedLaterOnceAndOnlyOnce() throws Exception {
        int port = FreePorts.next();
        Path data = dir.resolve("pgdata");
        pg = start(data, port);
        String url = "postgresql://postgres:postgres@localhost:" + port + "/postgres";
        String jdbc = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres&password=postgres";
        Path estate = Files.writeString(dir.resolve("estate.yaml"),
                "aws: {accounts: 3, regions: [us-east-1, eu-west-1]}\nlatency: {base: 20ms}\n");
        Path config = Files.writeString(dir.resolve("cloudg.yaml"), "aws: {collectors: [ec2], cloudcontrol_sweep: false, "
                + "tagging_sweep: false}\n"
                + "destinations: [{type: postgres, url: \"" + url + "\", batch_size: 10}]\n");
        Path out = dir.resolve("out");

        CompletableFuture<MapCommandTest.Run> mapping = Threads.async(() -> MapCommandTest.run("map",
                "--sim", "--sim-estate", estate.toString(), "-p", "aws", "--config", config.toString(), "--out",
                out.toString(), "--no-progress"));
        // the run row and its first batches are in: then the server goes away, mid-map
        Poll.until("the map streams a first batch", Duration.ofSeconds(120),
                () -> mapping.isDone() || count(jdbc, "SELECT count(*) FROM cloudg.run_assets") >= 10);
        assertThat(mapping.isDone()).as("the database went away while the map ran").isFalse();
        pg.close();
        pg = null;
        MapCommandTest.Run map = mapping.get(5, TimeUnit.MINUTES);
        assertThat(map.code()).as(map.err()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(map.out()).contains("Destination FAILED: postgres ");
        String runId = RunFiles.latest(out).orElseThrow();
        JsonNode written = JSON.readTree(out.resolve("inventory-map.json").toFile());
        assertThat(written.at("/run/destinations/0/status").asText()).isEqualTo("FAILED");
        long assets = written.at("/summary/assets").asLong();
        assertThat(assets).as("the map on disk is complete").isPositive().isEqualTo(written.get("assets").size());

        pg = start(data, port);
        assertThat(RunRows.rows(DriverManager.getConnection(jdbc), "SELECT run_id, state FROM cloudg.runs"))
                .as("the run row was left running").containsExactly(List.of(runId, "running"));
        assertThat(count(jdbc, "SELECT count(*) FROM cloudg.run_assets")).as("part of the run got in").isBetween(10L, assets - 1);

        MapCommandTest.Run load = MapCommandTest.run("load", out.toString(), "--postgres", url);
        assertThat(load.code()).as(load.err()).isZero();
        assertThat(load.out()).contains("run " + runId + ": loaded into postgres postgresql://postgres:***@localhost:" + port
                + "/postgres (schema cloudg): " + assets + " assets, ", " (its row was running; now finished)");
        assertThat(RunRows.rows(DriverManager.getConnection(jdbc), "SELECT state, complete, asset_count, loaded_from FROM cloudg.runs"))
                .containsExactly(List.of("finished", "true", Long.toString(assets),
                        out.resolve("runs").resolve(runId).resolve("inventory-map.json").toAbsolutePath().toString()));

        MapCommandTest.Run direct = MapCommandTest.run("load", out.resolve("inventory-map.json").toString(), "--postgres", url,
                "--schema", "direct");
        assertThat(direct.code()).as(direct.err()).isZero();
        RunRows recovered = RunRows.of(jdbc, "cloudg");
        assertThat(recovered).as("the half-streamed run, completed, holds what a load into an empty schema holds")
                .isEqualTo(RunRows.of(jdbc, "direct"));
        assertThat(recovered.runAssets()).hasSize((int) assets);
        assertThat(recovered.coverage()).hasSize(written.get("coverage").findValues("services").stream()
                .mapToInt(JsonNode::size).sum());

        String runsBefore = RunRows.rows(DriverManager.getConnection(jdbc), "SELECT * FROM cloudg.runs").toString();
        MapCommandTest.Run again = MapCommandTest.run("load", out.toString(), "--postgres", url);
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).contains("run " + runId + ": already loaded into ", "(" + assets + " assets, ",
                "; nothing changed");
        assertThat(RunRows.of(jdbc, "cloudg")).isEqualTo(recovered);
        assertThat(RunRows.rows(DriverManager.getConnection(jdbc), "SELECT * FROM cloudg.runs").toString()).isEqualTo(runsBefore);
    }

    @Test
    void whatCannotBeLoadedIsOneLineAndExitTwo() throws Exception {
        String url = TestPostgres.url();
        String schema = TestPostgres.freshSchema("load");
        Path junk = Files.writeString(dir.resolve("junk.json"), "{\"hello\": 1}");
        cannotLoad(List.of("load", dir.resolve("nope").toString(), "--postgres", url),
                "cloudg: no such file or directory: " + dir.resolve("nope"));
        cannotLoad(List.of("load", junk.toString(), "--postgres", url, "--schema", schema), "is not a cloudg inventory map");
        cannotLoad(List.of("load", junk.toString()), "nothing to load into: give --postgres URL");
        cannotLoad(List.of("load"), "load needs a PATH");
        cannotLoad(List.of("load", junk.toString(), "--schema", "x"), "--schema");

        int closed = FreePorts.next();
        cannotLoad(List.of("load", junk.toString(), "--postgres", "postgresql://cloudg@127.0.0.1:" + closed + "/inventory"),
                "cloudg: postgres postgresql://cloudg@127.0.0.1:" + closed + "/inventory (schema cloudg): ");

        String future = TestPostgres.freshSchema("future");
        try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + future);
            st.execute("CREATE TABLE " + future + ".schema_version (version integer PRIMARY KEY, description text NOT NULL, "
                    + "applied_at timestamptz NOT NULL DEFAULT now())");
            st.execute("INSERT INTO " + future + ".schema_version (version, description) VALUES (99, 'future')");
        }
        cannotLoad(List.of("load", junk.toString(), "--postgres", url, "--schema", future),
                "the schema " + future + " is at version 99, newer than this cloudg knows");
    }

    static void cannotLoad(List<String> args, String says) {
        MapCommandTest.Run r = MapCommandTest.run(args.toArray(new String[0]));
        assertThat(r.code()).as("%s: %s", args, r.err()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(r.err()).as("%s", args).contains(says).hasLineCount(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aRunThatNeverWroteItsMapIsListedThenMarkedFailed() throws Exception {
        String url = TestPostgres.url();
        String schema = TestPostgres.freshSchema("lost");
        io.cloudg.destination.postgres.PostgresSpec spec = io.cloudg.destination.postgres.PostgresSpec.of("--postgres", url)
                .withSchema(schema);
        io.cloudg.destination.Destinations.open(List.of(spec), new io.cloudg.destination.RunStart("lost-run", "embedded",
                List.of("aws"), java.time.Instant.parse("2026-03-01T02:00:00Z")), 10).close();
        Path out = dir.resolve("out");

        MapCommandTest.Run listed = MapCommandTest.run("load", "--postgres", url, "--schema", schema, "--mark-failed", "nope");
        assertThat(listed.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(listed.err()).contains("--mark-failed nope: no run nope in postgres ");

        Path config = Files.writeString(dir.resolve("cloudg.yaml"), "aws: {collectors: [vpc], cloudcontrol_sweep: false, "
                + "tagging_sweep: false}\ndestinations: [{type: postgres, url: \"" + url + "\", schema: " + schema + "}]\n");
        MapCommandTest.Run ok = MapCommandTest.run("map", "--sim", "-p", "aws", "--config", config.toString(), "--out",
                out.toString(), "--no-progress");
        assertThat(ok.code()).as(ok.err()).isZero();
        String done = RunFiles.latest(out).orElseThrow();
        MapCommandTest.Run load = MapCommandTest.run("load", out.toString(), "--config", config.toString());
        assertThat(load.code()).as(load.err()).isZero();
        assertThat(load.out()).contains("run " + done + ": already loaded into ")
                .contains("run lost-run: still running in postgres ", "--mark-failed lost-run");

        MapCommandTest.Run mark = MapCommandTest.run("load", "--postgres", url, "--schema", schema, "--mark-failed",
                "lost-run", "--reason", "interrupted: the node was lost");
        assertThat(mark.code()).as(mark.err()).isZero();
        assertThat(mark.out()).contains("run lost-run: marked failed in postgres ").doesNotContain("still running");
        assertThat(RunRows.rows("SELECT state, failure FROM " + schema + ".runs WHERE run_id = 'lost-run'"))
                .singleElement().satisfies(r -> {
                    assertThat(r.get(0)).isEqualTo("failed");
                    assertThat(r.get(1)).startsWith("interrupted: the node was lost (marked by cloudg load at ");
                });
        MapCommandTest.Run twice = MapCommandTest.run("load", "--postgres", url, "--schema", schema, "--mark-failed", done);
        assertThat(twice.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(twice.err()).contains("run " + done + " is finished in ", "only a running run can be marked failed");
    }
}
