package io.cloudg.destination.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.destination.DestinationStatus;
import io.cloudg.destination.Destinations;
import io.cloudg.destination.RunEnd;
import io.cloudg.destination.RunStart;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.report.Counts;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.config.StartupException;
import io.cloudg.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PostgreSQL destination against a real PostgreSQL server ({@link TestPostgres}). */
class PostgresDestinationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String schema = TestPostgres.freshSchema("dest");
    private final PostgresSpec spec = PostgresSpec.of("--postgres", TestPostgres.url()).withSchema(schema);

    static Asset vpc(String account, String id, String env) {
        return new Asset("aws", account, "us-east-1", "ec2", "AWS::EC2::VPC", id, "name-" + id, "arn:aws:ec2:us-east-1:" + account + ":vpc/" + id,
                Map.of("env", env), Map.of("cidr", "10.0.0.0/16", "nested", Map.of("b", 1, "a", List.of(1, 2))));
    }

    static String line(Asset a) {
        try {
            return JSON.writeValueAsString(a);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static final List<CoverageRecord> COVERAGE = List.of(new CoverageRecord("aws", "111111111111", "us-east-1",
            List.of(ServiceCoverage.success("vpc", 3), new ServiceCoverage("subnets", CoverageStatus.FAILED, 0, "AccessDenied: no"))));

    private List<DestinationStatus> run(String runId, List<Asset> assets, int batch, ThrottlingReport throttling) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        Destinations d = Destinations.open(List.of(spec), new RunStart(runId, "embedded", List.of("aws"), t), batch);
        assets.forEach(a -> d.accept(line(a)));
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("id", runId);
        return d.finish(new RunEnd(runId, t.plusSeconds(60), block, Summary.of(assets.size(), COVERAGE, 60, null), COVERAGE,
                throttling));
    }

    private static List<List<Object>> rows(String sql) throws SQLException {
        try (Connection c = TestPostgres.connect(); Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            List<List<Object>> out = new ArrayList<>();
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(r.getObject(i) == null ? null : String.valueOf(r.getObject(i)));
                }
                out.add(row);
            }
            return out;
        }
    }

    @Test
    void theSchemaIsCreatedOnceAndVersioned() throws Exception {
        try (Connection c = spec.connect()) {
            assertThat(PostgresSchema.migrate(c, schema)).containsExactly(1, 2);
            assertThat(PostgresSchema.migrate(c, schema)).isEmpty();
            assertThat(PostgresSchema.version(c, schema)).isEqualTo(PostgresSchema.current());
        }
        assertThat(rows("SELECT version, description FROM " + schema + ".schema_version"))
                .containsExactly(List.of("1", "runs, assets, versions, coverage, throttling"),
                        List.of("2", "runs: failed state with its reason, loaded_from"));
    }

    @Test
    void aSchemaFromANewerCloudgIsRefused() throws Exception {
        try (Connection c = spec.connect()) {
            PostgresSchema.migrate(c, schema);
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO " + schema + ".schema_version (version, description) VALUES (99, 'future')");
            }
        }
        assertThatThrownBy(spec::open).isInstanceOf(StartupException.class)
                .hasMessage(spec.describe() + ": the schema " + schema + " is at version 99, newer than this cloudg knows ("
                        + PostgresSchema.current() + "): upgrade cloudg");
    }

    @Test
    void aRunIsWrittenInBatchesWithItsCoverageAndThrottling() throws Exception {
        List<Asset> assets = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            assets.add(vpc("111111111111", "vpc-" + i, "prod"));
        }
        assets.add(vpc("111111111111", "vpc-3", "prod")); // seen twice in one run: one row
        ThrottlingReport throttling = new ThrottlingReport(new Counts(10, 2, 0, 2, 0, 0, 0, 0), List.of("ec2 slowed"),
                Map.of(), Map.of("aws/ec2", new Counts(10, 2, 0, 2, 0, 0, 0, 0)), Map.of(), Map.of());

        List<DestinationStatus> s = run("run-1", assets, 7, throttling);

        assertThat(s).singleElement().satisfies(st -> {
            assertThat(st.status()).isEqualTo(DestinationStatus.State.OK);
            assertThat(st.assetsWritten()).isEqualTo(26);
            assertThat(st.target()).isEqualTo("postgres " + spec.url().display() + " (schema " + schema + ")");
        });
        assertThat(rows("SELECT count(*), min(first_seen_run), max(last_seen_run) FROM " + schema + ".assets"))
                .containsExactly(List.of("25", "run-1", "run-1"));
        assertThat(rows("SELECT tags->>'env', attributes->'nested'->>'b', arn FROM " + schema + ".assets WHERE id = 'vpc-3'"))
                .containsExactly(List.of("prod", "1", "arn:aws:ec2:us-east-1:111111111111:vpc/vpc-3"));
        assertThat(rows("SELECT state, complete, asset_count, summary->>'assets' FROM " + schema + ".runs"))
                .containsExactly(List.of("finished", "false", "25", "26"));
        assertThat(rows("SELECT service, status, asset_count, error FROM " + schema + ".coverage WHERE run_id = 'run-1' ORDER BY service"))
                .containsExactly(List.of("subnets", "FAILED", "0", "AccessDenied: no"), java.util.Arrays.asList("vpc", "SUCCESS", "3", null));
        assertThat(rows("SELECT report->'totals'->>'throttled' FROM " + schema + ".throttling")).containsExactly(List.of("2"));
        assertThat(rows("SELECT scope, calls, throttled FROM " + schema + ".throttling_scopes"))
                .containsExactly(List.of("aws/ec2", "10", "2"));
    }

    @Test
    void aSecondRunKeepsFirstSeenMovesLastSeenAndVersionsChangedContent() throws Exception {
        run("run-1", List.of(vpc("111111111111", "vpc-a", "prod"), vpc("111111111111", "vpc-b", "prod")), 100, null);
        run("run-2", List.of(vpc("111111111111", "vpc-a", "prod"), vpc("111111111111", "vpc-b", "dev"),
                vpc("111111111111", "vpc-c", "prod")), 100, null);

        assertThat(rows("SELECT id, first_seen_run, last_seen_run, tags->>'env' FROM " + schema + ".assets ORDER BY id"))
                .containsExactly(List.of("vpc-a", "run-1", "run-2", "prod"), List.of("vpc-b", "run-1", "run-2", "dev"),
                        List.of("vpc-c", "run-2", "run-2", "prod"));
        assertThat(rows("SELECT a.id, count(*) FROM " + schema + ".asset_versions v JOIN " + schema
                + ".assets a USING (asset_id) GROUP BY a.id ORDER BY a.id"))
                .containsExactly(List.of("vpc-a", "1"), List.of("vpc-b", "2"), List.of("vpc-c", "1"));
        assertThat(rows("SELECT run_id, id, tags->>'env' FROM " + schema + ".run_asset_rows ORDER BY run_id, id"))
                .containsExactly(List.of("run-1", "vpc-a", "prod"), List.of("run-1", "vpc-b", "prod"),
                        List.of("run-2", "vpc-a", "prod"), List.of("run-2", "vpc-b", "dev"), List.of("run-2", "vpc-c", "prod"));
    }

    @Test
    void aResumedRunWritingTheSameAssetsAgainChangesNothing() throws Exception {
        List<Asset> assets = List.of(vpc("111111111111", "vpc-a", "prod"), vpc("222222222222", "vpc-b", "prod"));
        run("run-1", assets, 1, null);
        run("run-1", assets, 1, null);
        assertThat(rows("SELECT count(*) FROM " + schema + ".run_assets")).containsExactly(List.of("2"));
        assertThat(rows("SELECT count(*) FROM " + schema + ".asset_versions")).containsExactly(List.of("2"));
        assertThat(rows("SELECT count(*) FROM " + schema + ".coverage")).containsExactly(List.of("2"));
        assertThat(rows("SELECT count(*), max(run_seq) - min(run_seq) FROM " + schema + ".runs")).containsExactly(List.of("1", "0"));
    }

    @Test
    void aDatabaseThatGoesAwayMidRunFailsTheDestinationNotTheRun() throws Exception {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        Destinations d = Destinations.open(List.of(spec), new RunStart("run-x", "embedded", List.of("aws"), t), 2);
        d.accept(line(vpc("111111111111", "vpc-1", "prod")));
        d.accept(line(vpc("111111111111", "vpc-2", "prod")));
        // the first batch is being written on the destination's thread; wait until it is in
        for (int i = 0; i < 500 && rows("SELECT count(*) FROM " + schema + ".run_assets").get(0).get(0).equals("0"); i++) {
            Thread.onSpinWait();
        }
        TestPostgres.terminateOtherConnections();
        for (int i = 3; i <= 10; i++) {
            d.accept(line(vpc("111111111111", "vpc-" + i, "prod")));
        }
        List<DestinationStatus> s = d.finish(new RunEnd("run-x", t, Map.of("id", "run-x"), Summary.of(10, COVERAGE, 1, null),
                COVERAGE, null));
        assertThat(s).singleElement().satisfies(st -> {
            assertThat(st.failed()).isTrue();
            assertThat(st.assetsWritten()).isEqualTo(2);
            assertThat(st.error()).isNotBlank().doesNotContain("postgres:postgres");
        });
        assertThat(rows("SELECT state FROM " + schema + ".runs")).containsExactly(List.of("running"));
    }

    @Test
    void anUnreachableServerFailsTheStartInOneLineWithoutThePassword() {
        PostgresSpec nowhere = PostgresSpec.of("--postgres", "postgresql://cloudg:hunter2@127.0.0.1:1/inventory");
        assertThatThrownBy(() -> Destinations.open(List.of(nowhere), new RunStart("r", "embedded", List.of("aws"), Instant.EPOCH), 10))
                .isInstanceOf(StartupException.class)
                .hasMessageStartingWith("postgres postgresql://cloudg:***@127.0.0.1:1/inventory (schema cloudg): ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2").doesNotContain("\n"));
    }
}
