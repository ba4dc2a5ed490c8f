package io.cloudg.destination.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.destination.Destinations;
import io.cloudg.destination.RunEnd;
import io.cloudg.destination.RunStart;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.report.Counts;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.config.StartupException;
import io.cloudg.testkit.RunRows;
import io.cloudg.testkit.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished map loaded into PostgreSQL after the fact reads back as the run would have streamed, once: a
 * second load changes nothing, a run whose stream broke off is completed, an older run loaded late does not
 * overwrite what a later one saw, and a run that never wrote its map is marked failed with its reason.
 */
class PostgresLoadTest {
    static final Instant T = Instant.parse("2026-03-01T02:00:00Z");
    static final ThrottlingReport THROTTLING = new ThrottlingReport(new Counts(40, 3, 1, 4, 0, 0, 0, 2_500_000_000L),
            List.of("ec2 slowed"), Map.of(), Map.of("aws/111111111111/us-east-1/ec2", new Counts(40, 3, 1, 4, 0, 0, 0,
            2_500_000_000L)), Map.of(), Map.of());

    @TempDir
    Path dir;

    final String streamed = TestPostgres.freshSchema("streamed");
    final String loaded = TestPostgres.freshSchema("loaded");

    PostgresSpec spec(String schema) {
        return PostgresSpec.of("--postgres", TestPostgres.url()).withSchema(schema).withBatchSize(7);
    }

    static List<Asset> assets(int n, String env) {
        List<Asset> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(PostgresDestinationTest.vpc("111111111111", "vpc-" + i, env));
        }
        return out;
    }

    static Map<String, Object> runBlock(String runId, Instant started) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("id", runId);
        run.put("mode", "embedded");
        run.put("providers", List.of("aws"));
        run.put("started_at", started.toString());
        run.put("finished_at", started.plusSeconds(60).toString());
        run.put("governor", "memory");
        return run;
    }

    /** A map file of {@code assets}, as a run writes it. */
    Path map(String runId, Instant started, List<Asset> assets) {
        Path out = dir.resolve(runId);
        AssetSpool spool = AssetSpool.temporary(dir);
        assets.forEach(spool::accept);
        Summary summary = Summary.of(assets.size(), PostgresDestinationTest.COVERAGE, 60, THROTTLING.summary());
        return InventoryMapWriter.write(out, runBlock(runId, started), summary, PostgresDestinationTest.COVERAGE,
                THROTTLING, spool);
    }

    /** The same run streamed into {@code schema} as a map does (its destination fed while it runs). */
    void stream(String schema, String runId, Instant started, List<Asset> assets) {
        Destinations d = Destinations.open(List.of(spec(schema)), new RunStart(runId, "embedded", List.of("aws"), started), 7);
        assets.forEach(a -> d.accept(PostgresDestinationTest.line(a)));
        List<CoverageRecord> coverage = PostgresDestinationTest.COVERAGE;
        d.finish(new RunEnd(runId, started.plusSeconds(60), runBlock(runId, started),
                Summary.of(assets.size(), coverage, 60, THROTTLING.summary()), coverage, THROTTLING));
    }

    PostgresLoad.Result load(String schema, Path map) throws SQLException {
        try (PostgresLoad l = PostgresLoad.open(spec(schema))) {
            return l.load(map);
        }
    }

    @Test
    void aLoadedMapReadsBackAsTheStreamedRunAndASecondLoadChangesNothing() throws Exception {
        List<Asset> assets = assets(25, "prod");
        stream(streamed, "run-1", T, assets);
        Path map = map("run-1", T, assets);

        PostgresLoad.Result first = load(loaded, map);
        assertThat(first).isEqualTo(new PostgresLoad.Result("run-1", PostgresLoad.Outcome.LOADED, null, 25, 2));
        assertThat(RunRows.of(loaded)).as("loaded as it would have streamed").isEqualTo(RunRows.of(streamed));
        assertThat(RunRows.rows("SELECT state, loaded_from, failure FROM " + loaded + ".runs"))
                .containsExactly(java.util.Arrays.asList("finished", map.toAbsolutePath().toString(), null));

        RunRows before = RunRows.of(loaded);
        String rowsBefore = RunRows.rows("SELECT * FROM " + loaded + ".runs").toString();
        PostgresLoad.Result again = load(loaded, map);
        assertThat(again).isEqualTo(new PostgresLoad.Result("run-1", PostgresLoad.Outcome.ALREADY_LOADED, "finished", 25, 2));
        assertThat(RunRows.of(loaded)).isEqualTo(before);
        assertThat(RunRows.rows("SELECT * FROM " + loaded + ".runs").toString()).as("not even a timestamp moved")
                .isEqualTo(rowsBefore);
    }

    @Test
    void aRunWhoseStreamBrokeOffIsCompletedWithoutADuplicate() throws Exception {
        List<Asset> assets = assets(30, "prod");
        stream(streamed, "run-1", T, assets);
        // the stream of the run into `loaded` broke off after two batches: its row stays running
        Destinations d = Destinations.open(List.of(spec(loaded)), new RunStart("run-1", "embedded", List.of("aws"), T), 7);
        assets.subList(0, 14).forEach(a -> d.accept(PostgresDestinationTest.line(a)));
        RunRows.awaitAssets(loaded, 14);
        d.close();
        assertThat(RunRows.rows("SELECT state, count(*) OVER () FROM " + loaded + ".runs"))
                .containsExactly(List.of("running", "1"));

        PostgresLoad.Result r = load(loaded, map("run-1", T, assets));
        assertThat(r.outcome()).isEqualTo(PostgresLoad.Outcome.LOADED);
        assertThat(r.before()).isEqualTo("running");
        assertThat(r.assets()).isEqualTo(30);
        assertThat(RunRows.of(loaded)).isEqualTo(RunRows.of(streamed));
    }

    @Test
    void anOlderRunLoadedLateLeavesWhatALaterRunSaw() throws Exception {
        stream(loaded, "run-2", T.plusSeconds(3600), assets(3, "dev"));
        load(loaded, map("run-1", T, assets(3, "prod")));
        assertThat(RunRows.rows("SELECT id, tags->>'env', first_seen_run, last_seen_run FROM " + loaded
                + ".assets ORDER BY id")).as("the estate as last seen is the later run's").containsExactly(
                List.of("vpc-0", "dev", "run-2", "run-2"), List.of("vpc-1", "dev", "run-2", "run-2"),
                List.of("vpc-2", "dev", "run-2", "run-2"));
        assertThat(RunRows.rows("SELECT r.run_id, v.tags->>'env' FROM " + loaded + ".run_assets ra JOIN " + loaded
                + ".runs r USING (run_seq) JOIN " + loaded + ".asset_versions v USING (version_id) WHERE v.arn LIKE '%vpc-0' "
                + "ORDER BY r.run_id")).as("each run keeps what it saw")
                .containsExactly(List.of("run-1", "prod"), List.of("run-2", "dev"));
    }

    @Test
    void aRunThatNeverWroteItsMapIsMarkedFailedWithItsReason() throws Exception {
        Destinations d = Destinations.open(List.of(spec(loaded)), new RunStart("lost", "embedded", List.of("aws"), T), 7);
        d.close();
        stream(loaded, "done", T, assets(2, "prod"));
        try (PostgresLoad l = PostgresLoad.open(spec(loaded))) {
            assertThat(l.running()).extracting(PostgresLoad.Running::runId).containsExactly("lost");
            l.markFailed("lost", "interrupted: the pod was evicted");
            assertThat(l.running()).isEmpty();
            assertThatThrownBy(() -> l.markFailed("done", "x")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("run done is finished in " + spec(loaded).describe() + ": only a running run can be marked failed");
            assertThatThrownBy(() -> l.markFailed("nope", "x")).hasMessage("no run nope in " + spec(loaded).describe());
        }
        assertThat(RunRows.rows("SELECT run_id, state, failure FROM " + loaded + ".runs ORDER BY run_id")).containsExactly(
                java.util.Arrays.asList("done", "finished", null), List.of("lost", "failed", "interrupted: the pod was evicted"));
    }

    @Test
    void whatIsNotAFinishedCloudgMapIsRefusedNamingIt() throws Exception {
        Path notJson = Files.writeString(dir.resolve("notes.txt"), "hello");
        Path other = Files.writeString(dir.resolve("other.json"), "{\"format\": \"someone-else/1\", \"assets\": []}");
        Path future = Files.writeString(dir.resolve("future.json"), "{\"format\": \"cloudg.inventory-map/9\", \"assets\": []}");
        Path unfinished = Files.writeString(dir.resolve("unfinished.json"), "{\"format\": \"cloudg.inventory-map/1\", "
                + "\"run\": {\"id\": \"r\", \"mode\": \"embedded\", \"started_at\": \"2026-03-01T02:00:00Z\"}, \"assets\": []}");
        try (PostgresLoad l = PostgresLoad.open(spec(loaded))) {
            assertThatThrownBy(() -> l.load(notJson)).isInstanceOf(StartupException.class).hasMessageContaining(notJson.toString());
            assertThatThrownBy(() -> l.load(other)).isInstanceOf(StartupException.class)
                    .hasMessageContaining("is not a cloudg inventory map");
            assertThatThrownBy(() -> l.load(future)).isInstanceOf(StartupException.class)
                    .hasMessage(future + " is in format cloudg.inventory-map/9; this cloudg loads cloudg.inventory-map/1");
            assertThatThrownBy(() -> l.load(unfinished)).isInstanceOf(StartupException.class)
                    .hasMessage(unfinished + " is not a finished cloudg map: its run block has no finished_at");
            assertThatThrownBy(() -> l.load(dir.resolve("missing.json"))).isInstanceOf(StartupException.class)
                    .hasMessageContaining("no such file or directory");
        }
        assertThat(RunRows.rows("SELECT count(*) FROM " + loaded + ".runs")).containsExactly(List.of("0"));
    }

    @Test
    void aSchemaOfVersionOneIsMigratedWithItsRowsAndCanHoldAFailedRun() throws Exception {
        try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + loaded);
            st.execute("CREATE TABLE " + loaded + ".schema_version (version integer PRIMARY KEY, description text NOT NULL, "
                    + "applied_at timestamptz NOT NULL DEFAULT now())");
            st.execute(PostgresSchema.MIGRATIONS.get(0).sql().replace("{s}", loaded));
            st.execute("INSERT INTO " + loaded + ".schema_version (version, description) VALUES (1, 'v1')");
            st.execute("INSERT INTO " + loaded + ".runs (run_id, mode, providers, started_at, state) VALUES "
                    + "('old', 'embedded', '{aws}', now(), 'running')");
        }
        try (PostgresLoad l = PostgresLoad.open(spec(loaded))) {
            l.markFailed("old", "interrupted");
        }
        assertThat(RunRows.rows("SELECT version FROM " + loaded + ".schema_version ORDER BY version"))
                .containsExactly(List.of("1"), List.of("2"));
        assertThat(RunRows.rows("SELECT state, failure FROM " + loaded + ".runs")).containsExactly(List.of("failed", "interrupted"));
    }
}
