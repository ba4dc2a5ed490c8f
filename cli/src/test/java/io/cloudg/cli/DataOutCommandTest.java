package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.inventory.RunFiles;
import io.cloudg.testkit.MapSchema;
import io.cloudg.testkit.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudg map --postgres --keep --retry-failed} and {@code cloudg diff} as a user runs them: a map the
 * simulator's faults leave incomplete, a retry that completes it, the two runs compared from their
 * directories and from PostgreSQL.
 */
class DataOutCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @AfterEach
    void mapsMatchTheSchema() {
        MapSchema.assertEveryMapValid(dir);
    }

    @Test
    void aFailedMapIsRetriedKeptStoredInPostgresAndDiffed() throws Exception {
        Path out = dir.resolve("out");
        Path faults = dir.resolve("faults.yaml");
        Files.writeString(faults, "faults: [{match: {provider: aws, service: sqs}, error: access_denied}]\n");
        Path config = dir.resolve("cloudg.yaml");
        Files.writeString(config, "aws: {collectors: [sqs_queues, vpc], cloudcontrol_sweep: false, tagging_sweep: false}\n");
        String pg = TestPostgres.url();

        MapCommandTest.Run first = MapCommandTest.run("map", "--sim", "-p", "aws", "--sim-faults", faults.toString(),
                "--config", config.toString(), "--out", out.toString(), "--no-progress", "--postgres", pg, "--keep", "2");
        assertThat(first.code()).as(first.err()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(first.out()).contains("sqs_queues: AccessDenied", "Destination postgres ", " assets written");
        String firstRun = RunFiles.latest(out).orElseThrow();

        MapCommandTest.Run retry = MapCommandTest.run("map", "--sim", "-p", "aws", "--config", config.toString(),
                "--out", out.toString(), "--no-progress", "--postgres", pg, "--keep", "2", "--retry-failed", out.toString());
        assertThat(retry.code()).as(retry.err() + retry.out()).isEqualTo(ExitCodes.OK);
        String retryRun = RunFiles.latest(out).orElseThrow();
        assertThat(RunFiles.runIds(out)).containsExactly(firstRun, retryRun);
        JsonNode run = JSON.readTree(out.resolve("inventory-map.json").toFile()).get("run");
        assertThat(run.at("/retry/of_run").asText()).isEqualTo(firstRun);
        assertThat(run.at("/retry/retried")).allSatisfy(e -> assertThat(e.asText()).endsWith("/sqs_queues"));

        MapCommandTest.Run files = MapCommandTest.run("diff", out.resolve("runs").resolve(firstRun).toString(), out.toString());
        assertThat(files.code()).as(files.err()).isEqualTo(DiffCommand.CHANGED);
        assertThat(files.out()).contains("Assets: ", " added, 0 removed, 0 changed", "Coverage: 0 worse, ")
                .containsPattern("better +aws/\\d+/us-east-1/sqs_queues FAILED -> SUCCESS")
                .contains("  + aws/", "AWS::SQS::Queue");

        MapCommandTest.Run db = MapCommandTest.run("diff", "--postgres", pg, "--json", "previous", "latest");
        assertThat(db.code()).as(db.err()).isEqualTo(DiffCommand.CHANGED);
        JsonNode j = JSON.readTree(db.out());
        assertThat(j.at("/old/run_id").asText()).isEqualTo(firstRun);
        assertThat(j.at("/new/run_id").asText()).isEqualTo(retryRun);
        assertThat(j.at("/summary/assets/added").asLong()).isPositive();
        assertThat(j.at("/summary/coverage/better").asLong()).isPositive();
        List<String> added = j.at("/assets/added").findValuesAsText("type");
        assertThat(added).isNotEmpty().allMatch(t -> t.equals("AWS::SQS::Queue"));

        MapCommandTest.Run same = MapCommandTest.run("diff", out.toString(), out.resolve("inventory-map.json").toString());
        assertThat(same.code()).as(same.err()).isEqualTo(DiffCommand.SAME);
        assertThat(same.out()).contains("No change.");
    }

    @Test
    void aFailedDestinationMakesACompleteMapExitThree() {
        io.cloudg.inventory.AssetSpool spool = io.cloudg.inventory.AssetSpool.temporary(dir);
        io.cloudg.inventory.Summary all = io.cloudg.inventory.Summary.of(0, List.of(), 1, null);
        io.cloudg.destination.DestinationStatus failed = new io.cloudg.destination.DestinationStatus("postgres", "postgres x",
                io.cloudg.destination.DestinationStatus.State.FAILED, 10, "connection lost");
        io.cloudg.destination.DestinationStatus ok = new io.cloudg.destination.DestinationStatus("postgres", "postgres x",
                io.cloudg.destination.DestinationStatus.State.OK, 10, null);
        assertThat(OutputOptions.exitCode(new io.cloudg.InventoryResult("r", List.of(), all, null, dir, spool, List.of(failed), null)))
                .isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(OutputOptions.exitCode(new io.cloudg.InventoryResult("r", List.of(), all, null, dir, spool, List.of(ok), null)))
                .isEqualTo(ExitCodes.OK);
        spool.delete();
    }

    @Test
    void aDiffThatCannotReadARunCannotStart() throws Exception {
        MapCommandTest.Run r = MapCommandTest.run("diff", dir.resolve("nope").toString(), dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(r.err()).isEqualTo("cloudg: no such file or directory: " + dir.resolve("nope") + System.lineSeparator());
        MapCommandTest.Run schemaAlone = MapCommandTest.run("diff", "--schema", "x", "a", "b");
        assertThat(schemaAlone.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(schemaAlone.err()).contains("--schema: names a PostgreSQL schema: pass --postgres URL with it");
        String missing = TestPostgres.freshSchema("cli_empty");
        MapCommandTest.Run noSchema = MapCommandTest.run("diff", "--postgres", TestPostgres.url(), "--schema", missing,
                "latest", "previous");
        assertThat(noSchema.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(noSchema.err()).startsWith("cloudg: postgres ").contains(": there is no schema " + missing + " (")
                .hasLineCount(1);
        assertThat(schemaExists(missing)).as("a reader never creates a schema").isFalse();
    }

    @Test
    void aMistypedSchemaNameIsRefusedNamingTheFlagGiven() {
        // refused before any connection: the URL need not answer
        MapCommandTest.Run r = MapCommandTest.run("diff", "--postgres", "postgresql://analyst@127.0.0.1:1/inventory",
                "--schema", "BadName", "latest", "previous");
        assertThat(r.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(r.err()).isEqualTo("cloudg: --schema must be a lower-case SQL name like cloudg, but was \"BadName\""
                + System.lineSeparator());
    }

    static boolean schemaExists(String schema) throws java.sql.SQLException {
        try (java.sql.Connection c = TestPostgres.connect();
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, schema);
            try (java.sql.ResultSet r = ps.executeQuery()) {
                return r.next();
            }
        }
    }

    @Test
    void anAnalystWhoMaySelectOnlyDiffsRunsAndAMistypedSchemaIsOneLineThatCreatesNothing() throws Exception {
        String schema = TestPostgres.freshSchema("cli_ro");
        String pg = TestPostgres.url();
        Path config = dir.resolve("cloudg.yaml");
        Files.writeString(config, "aws: {collectors: [vpc], cloudcontrol_sweep: false, tagging_sweep: false}\n"
                + "destinations: [{type: postgres, url: \"" + pg + "\", schema: " + schema + "}]\n");
        for (int i = 0; i < 2; i++) {
            MapCommandTest.Run map = MapCommandTest.run("map", "--sim", "-p", "aws", "--config", config.toString(),
                    "--out", dir.resolve("out").toString(), "--no-progress");
            assertThat(map.code()).as(map.err()).isEqualTo(ExitCodes.OK);
        }
        String analyst = ("analyst_" + ProcessHandle.current().pid()).toLowerCase();
        try (java.sql.Connection c = TestPostgres.connect(); java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE ROLE " + analyst + " LOGIN PASSWORD 'read-only'");
            st.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + analyst);
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + analyst);
        }
        String asAnalyst = io.cloudg.destination.postgres.PostgresUrl.parse("test", pg).jdbcUrl()
                .replaceFirst("^jdbc:postgresql://", "postgresql://" + analyst + ":read-only@");
        try {
            MapCommandTest.Run diff = MapCommandTest.run("diff", "--postgres", asAnalyst, "--schema", schema,
                    "previous", "latest");
            assertThat(diff.code()).as("SELECT is all a reader needs: " + diff.err()).isIn(DiffCommand.SAME, DiffCommand.CHANGED);
            assertThat(diff.out()).containsAnyOf("No change.", "Assets: ");

            MapCommandTest.Run typo = MapCommandTest.run("diff", "--postgres", asAnalyst, "--schema", schema + "x",
                    "previous", "latest");
            assertThat(typo.code()).isEqualTo(ExitCodes.CANNOT_START);
            assertThat(typo.err()).hasLineCount(1).contains("there is no schema " + schema + "x (");
            MapCommandTest.Run typoAsOwner = MapCommandTest.run("diff", "--postgres", pg, "--schema", schema + "x",
                    "previous", "latest");
            assertThat(typoAsOwner.code()).isEqualTo(ExitCodes.CANNOT_START);
            assertThat(schemaExists(schema + "x")).as("not created, even by a role that could").isFalse();
        } finally {
            try (java.sql.Connection c = TestPostgres.connect(); java.sql.Statement st = c.createStatement()) {
                st.execute("REVOKE ALL ON ALL TABLES IN SCHEMA " + schema + " FROM " + analyst);
                st.execute("REVOKE ALL ON SCHEMA " + schema + " FROM " + analyst);
                st.execute("DROP ROLE " + analyst);
            }
        }
    }

    @Test
    void retryFailedIsRefusedWithAFleetAndABadKeepCannotStart() {
        MapCommandTest.Run fleet = MapCommandTest.run("map", "--distributed", "--retry-failed", dir.toString());
        assertThat(fleet.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(fleet.err()).contains("--retry-failed re-collects in this process");
        MapCommandTest.Run keep = MapCommandTest.run("map", "--sim", "-p", "aws", "--keep", "0", "--out", dir.toString());
        assertThat(keep.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(keep.err()).contains("--keep must be an integer >= 1, but was 0");
        MapCommandTest.Run nothing = MapCommandTest.run("map", "--sim", "-p", "aws", "--retry-failed", dir.resolve("none").toString(),
                "--out", dir.toString());
        assertThat(nothing.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(nothing.err()).contains("--retry-failed: no such file or directory");
        MapCommandTest.Run badUrl = MapCommandTest.run("map", "--sim", "-p", "aws", "--postgres", "mysql://x", "--out", dir.toString());
        assertThat(badUrl.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(badUrl.err()).contains("--postgres must be a PostgreSQL URL");
    }
}
