package io.cloudg.testkit;

import io.cloudg.resilience.testkit.Poll;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a PostgreSQL schema of cloudg holds, table by table, in a form two schemas can be compared by: every
 * row by its identities (run ids, asset identities, digests) rather than by the serial numbers the database
 * gave it, {@code jsonb} as its canonical text. {@code loaded_from} (where a run was loaded from) is left out.
 */
public record RunRows(List<List<String>> runs, List<List<String>> assets, List<List<String>> versions,
                      List<List<String>> runAssets, List<List<String>> coverage, List<List<String>> throttling,
                      List<List<String>> scopes) {
    private static final String IDENTITY = "a.provider, a.account_id, a.region, a.type, a.id";

    /** The rows of {@code schema} on the test server ({@link TestPostgres}). */
    public static RunRows of(String schema) throws SQLException {
        return of(null, schema);
    }

    /** The rows of {@code schema} at {@code jdbcUrl} (user and password in it), or the test server's when null. */
    public static RunRows of(String jdbcUrl, String schema) throws SQLException {
        String s = schema;
        try (Connection c = jdbcUrl == null ? TestPostgres.connect() : DriverManager.getConnection(jdbcUrl)) {
            return new RunRows(
                    rows(c, "SELECT run_id, mode, providers::text, started_at, finished_at, state, complete, asset_count, "
                            + "summary::text, run::text, failure FROM " + s + ".runs ORDER BY run_id"),
                    rows(c, "SELECT " + IDENTITY + ", service, name, arn, tags::text, attributes::text, digest, "
                            + "first_seen_run, last_seen_run FROM " + s + ".assets a ORDER BY 1, 2, 3, 4, 5"),
                    rows(c, "SELECT " + IDENTITY + ", v.digest, v.service, v.name, v.arn, v.tags::text, v.attributes::text, "
                            + "v.first_seen_run FROM " + s + ".asset_versions v JOIN " + s + ".assets a USING (asset_id) "
                            + "ORDER BY 1, 2, 3, 4, 5, 6"),
                    rows(c, "SELECT r.run_id, " + IDENTITY + ", v.digest FROM " + s + ".run_assets ra JOIN " + s
                            + ".runs r ON r.run_seq = ra.run_seq JOIN " + s + ".assets a ON a.asset_id = ra.asset_id JOIN " + s
                            + ".asset_versions v ON v.version_id = ra.version_id ORDER BY 1, 2, 3, 4, 5, 6"),
                    rows(c, "SELECT run_id, provider, account_id, region, service, status, asset_count, error FROM " + s
                            + ".coverage ORDER BY 1, 2, 3, 4, 5"),
                    rows(c, "SELECT run_id, report::text FROM " + s + ".throttling ORDER BY 1"),
                    rows(c, "SELECT run_id, scope, calls, throttled, transient_errors, retries, gave_up, rejected, "
                            + "breaker_trips, wait_seconds FROM " + s + ".throttling_scopes ORDER BY 1, 2"));
        }
    }

    /** {@code sql}'s rows on the test server, each value as text (null stays null). */
    public static List<List<String>> rows(String sql) throws SQLException {
        try (Connection c = TestPostgres.connect()) {
            return rows(c, sql);
        }
    }

    public static List<List<String>> rows(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            List<List<String>> out = new ArrayList<>();
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object o = r.getObject(i);
                    row.add(o == null ? null : String.valueOf(o));
                }
                out.add(row);
            }
            return out;
        }
    }

    /**
     * Waits until {@code schema} on the test server holds at least {@code n} assets of a run (a destination
     * writes on a thread of its own); fails after 30 s.
     */
    public static void awaitAssets(String schema, long n) throws SQLException, InterruptedException {
        long[] held = {0};
        Poll.until(n + " run assets in " + schema, Duration.ofSeconds(30), () -> {
            try {
                held[0] = Long.parseLong(rows("SELECT count(*) FROM " + schema + ".run_assets").get(0).get(0));
            } catch (SQLException e) {
                throw new AssertionError("cannot count " + schema + "'s run assets", e);
            }
            return held[0] >= n;
        }, () -> "it holds " + held[0]);
    }
}
