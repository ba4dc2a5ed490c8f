package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.destination.DestinationStatus;
import io.cloudg.destination.postgres.PostgresSpec;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.testkit.MapSchema;
import io.cloudg.testkit.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An embedded map of cloud-sim written to a real PostgreSQL while it runs, and one whose database goes away. */
class PostgresMapEndToEndTest {
    @TempDir
    Path out;

    @AfterEach
    void mapsMatchTheSchema() {
        MapSchema.assertEveryMapValid(out);
    }

    private static Set<String> query(String sql) throws Exception {
        Set<String> keys = new TreeSet<>();
        try (Connection c = TestPostgres.connect(); Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            while (r.next()) {
                keys.add(r.getString(1));
            }
        }
        return keys;
    }

    @Test
    void theDatabaseHoldsWhatTheMapHolds() throws Exception {
        String schema = TestPostgres.freshSchema("e2e");
        try (SimHarness h = SimHarness.defaultEstate()) {
            CloudGConfig config = h.config(out)
                    .output(o -> o.withDestination(PostgresSpec.of("--postgres", TestPostgres.url()).withSchema(schema))).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            assertThat(r.destinations()).singleElement().satisfies(d -> {
                assertThat(d.status()).isEqualTo(DestinationStatus.State.OK);
                assertThat(d.assetsWritten()).isEqualTo(r.assetCount());
            });
            Set<String> mapped;
            try (Stream<Asset> assets = r.assets()) {
                mapped = assets.map(Asset::key).collect(Collectors.toCollection(TreeSet::new));
            }
            assertThat(mapped).hasSizeGreaterThan(400);
            assertThat(query("SELECT provider || '|' || account_id || '|' || region || '|' || type || '|' || id FROM "
                    + schema + ".run_asset_rows WHERE run_id = '" + r.runId() + "'")).isEqualTo(mapped);
            Set<String> entries = CoverageEntry.flatten(r.coverage()).stream().map(e -> e.id() + "=" + e.status())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(query("SELECT provider || '/' || account_id || '/' || region || '/' || service || '=' || status FROM "
                    + schema + ".coverage WHERE run_id = '" + r.runId() + "'")).isEqualTo(entries);
            assertThat(query("SELECT state || ' ' || complete FROM " + schema + ".runs")).containsExactly("finished true");
            JsonNode run = new ObjectMapper().readTree(r.mapFile().toFile()).get("run");
            assertThat(run.at("/destinations/0/status").asText()).isEqualTo("OK");
            assertThat(run.at("/discovery/aws/management_account").asText()).matches("\\d{12}");
            assertThat(Files.readAllLines(out.resolve("assets.jsonl"))).hasSize((int) r.assetCount());
        }
    }

    @Test
    void aDatabaseLostMidRunLosesNothingOfTheMapAndTheRunSaysWhichDestinationFailed() throws Exception {
        String schema = TestPostgres.freshSchema("e2e_lost");
        try (SimHarness h = SimHarness.defaultEstate()) {
            CloudGConfig config = h.config(out).output(o -> o.withDestination(pgOf(schema))).build();
            AtomicBoolean cut = new AtomicBoolean();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults()))
                    .onTaskDone((task, record, done, total) -> {
                        if (done == 2 && cut.compareAndSet(false, true)) {
                            try {
                                TestPostgres.terminateOtherConnections();
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    }).mapInventory();

            assertThat(cut).isTrue();
            assertThat(r.destinationFailed()).isTrue();
            assertThat(r.complete()).as("the map itself is complete").isTrue();
            h.assertEqualsTruth(SimHarness.mappedKeys(r), a -> a.provider().equals("aws"));
            DestinationStatus d = r.destinations().get(0);
            assertThat(d.assetsWritten()).isLessThan(r.assetCount());
            JsonNode run = new ObjectMapper().readTree(r.mapFile().toFile()).get("run");
            assertThat(run.at("/destinations/0/status").asText()).isEqualTo("FAILED");
            assertThat(run.at("/destinations/0/error").asText()).isNotBlank();
        }
    }

    private static PostgresSpec pgOf(String schema) {
        PostgresSpec pg = PostgresSpec.of("--postgres", TestPostgres.url());
        return new PostgresSpec(pg.key(), pg.url(), schema, null, 1, pg.env());
    }
}
