package io.cloudg.destination.postgres;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.destination.Destination;
import io.cloudg.destination.RunEnd;
import io.cloudg.destination.RunStart;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.resilience.report.Counts;
import io.cloudg.resilience.report.ThrottlingReport;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Writes a run into PostgreSQL (tables in docs/postgres.md). Each batch of assets is one transaction: one
 * {@code COPY} into a temporary staging table, then three set-based statements: upsert {@code assets} (the
 * newest content, {@code first_seen_run} kept, {@code last_seen_run} set), add the {@code asset_versions}
 * not seen before (content identified by a digest), and record {@code run_assets} (which version of which
 * asset this run saw). Writing the same asset twice in a run (a resumed fleet run replays its results)
 * changes nothing. At the end, the coverage entries go in with one {@code COPY}, the throttling report as
 * {@code jsonb} plus a row per scope, and the run row gets its summary. {@code assets} keeps the newest content
 * by run start: a run loaded after the fact ({@link PostgresLoad}) does not overwrite what a later run saw.
 */
final class PostgresDestination implements Destination {
    private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    private static final String KEY = "provider, account_id, region, type, id";

    private final PostgresSpec spec;
    private final Connection c;
    private final String s;
    private final CopyManager copy;
    /** Where the run was loaded from after the fact ({@code cloudg load}), null while it streams. */
    private final String loadedFrom;
    private String runId;
    private long runSeq;
    private Timestamp startedAt;

    PostgresDestination(PostgresSpec spec, Connection c) {
        this(spec, c, null);
    }

    PostgresDestination(PostgresSpec spec, Connection c, String loadedFrom) {
        this.spec = spec;
        this.c = c;
        this.s = spec.schema();
        this.loadedFrom = loadedFrom;
        try {
            this.copy = c.unwrap(PGConnection.class).getCopyAPI();
        } catch (SQLException e) {
            throw new IllegalStateException("not a PostgreSQL connection", e);
        }
    }

    @Override
    public String describe() {
        return spec.describe();
    }

    @Override
    public void begin(RunStart start) throws SQLException {
        runId = start.runId();
        startedAt = Timestamp.from(start.startedAt());
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + s + ".runs (run_id, mode, providers, started_at, state) "
                + "VALUES (?, ?, ?, ?, 'running') ON CONFLICT (run_id) DO UPDATE SET state = 'running' RETURNING run_seq")) {
            ps.setString(1, start.runId());
            ps.setString(2, start.mode());
            ps.setArray(3, c.createArrayOf("text", start.providers().toArray()));
            ps.setTimestamp(4, Timestamp.from(start.startedAt()));
            try (ResultSet r = ps.executeQuery()) {
                r.next();
                runSeq = r.getLong(1);
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE IF NOT EXISTS cloudg_stage (provider text, account_id text, region text, "
                    + "type text, id text, service text, name text, arn text, tags jsonb, attributes jsonb, digest text) "
                    + "ON COMMIT DELETE ROWS");
        }
        c.commit();
    }

    @Override
    public void write(List<Asset> batch) throws SQLException, IOException {
        Map<String, Asset> unique = new LinkedHashMap<>();
        for (Asset a : batch) {
            unique.put(a.key(), a);
        }
        StringBuilder csv = new StringBuilder(unique.size() * 400);
        for (Asset a : unique.values()) {
            String tags = json(a.tags());
            String attributes = json(a.attributes());
            Csv.row(csv, a.provider(), a.accountId(), a.region(), a.type(), a.id(), a.service(), a.name(), a.arn(), tags,
                    attributes, digest(a, tags, attributes));
        }
        try {
            copy.copyIn("COPY cloudg_stage FROM STDIN (FORMAT csv)", new StringReader(csv.toString()));
            try (Statement st = c.createStatement()) {
                // a temporary table has no statistics: without them the joins below scan the whole assets
                // table for every batch (quadratic in the estate); with them they are index lookups
                st.execute("ANALYZE cloudg_stage");
            }
            // the newest content by run start: a run loaded late leaves what a run started after it saw
            try (PreparedStatement up = c.prepareStatement("INSERT INTO " + s + ".assets AS cur (" + KEY
                    + ", service, name, arn, tags, attributes, digest, first_seen_run, last_seen_run) SELECT " + KEY
                    + ", service, name, arn, tags, attributes, digest, ?, ? FROM cloudg_stage ON CONFLICT (" + KEY
                    + ") DO UPDATE SET service = EXCLUDED.service, name = EXCLUDED.name, arn = EXCLUDED.arn, "
                    + "tags = EXCLUDED.tags, attributes = EXCLUDED.attributes, digest = EXCLUDED.digest, "
                    + "last_seen_run = EXCLUDED.last_seen_run WHERE NOT EXISTS (SELECT 1 FROM " + s
                    + ".runs later WHERE later.run_id = cur.last_seen_run AND later.started_at > ?)")) {
                up.setString(1, runId);
                up.setString(2, runId);
                up.setTimestamp(3, startedAt);
                up.executeUpdate();
            }
            try (PreparedStatement v = c.prepareStatement("INSERT INTO " + s + ".asset_versions (asset_id, digest, service, "
                    + "name, arn, tags, attributes, first_seen_run) SELECT a.asset_id, st.digest, st.service, st.name, "
                    + "st.arn, st.tags, st.attributes, ? FROM cloudg_stage st JOIN " + s + ".assets a USING (" + KEY
                    + ") ON CONFLICT (asset_id, digest) DO NOTHING")) {
                v.setString(1, runId);
                v.executeUpdate();
            }
            try (PreparedStatement ra = c.prepareStatement("INSERT INTO " + s + ".run_assets (run_seq, asset_id, version_id) "
                    + "SELECT ?, a.asset_id, v.version_id FROM cloudg_stage st JOIN " + s + ".assets a USING (" + KEY
                    + ") JOIN " + s + ".asset_versions v ON v.asset_id = a.asset_id AND v.digest = st.digest "
                    + "ON CONFLICT (run_seq, asset_id) DO UPDATE SET version_id = EXCLUDED.version_id")) {
                ra.setLong(1, runSeq);
                ra.executeUpdate();
            }
            c.commit();
        } catch (SQLException | IOException | RuntimeException e) {
            rollback();
            throw e;
        }
    }

    @Override
    public void finish(RunEnd end) throws SQLException, IOException {
        ThrottlingReport t = end.throttling();
        finish(end.finishedAt(), end.summary().complete(), JSON.writeValueAsString(end.summary()),
                JSON.writeValueAsString(end.run()), end.coverage(), t == null ? null : JSON.writeValueAsString(t),
                t == null ? Map.of() : t.scopes());
    }

    /**
     * The end of a run from its parts as JSON: what {@link #finish(RunEnd)} writes, and what a map read back
     * from disk gives ({@link PostgresLoad}).
     *
     * @param throttling the throttling block, or null when the run had none
     * @param scopes its scopes' counters (empty without one)
     */
    void finish(Instant finishedAt, boolean complete, String summary, String run, List<CoverageRecord> coverage,
                String throttling, Map<String, Counts> scopes) throws SQLException, IOException {
        try {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM " + s + ".coverage WHERE run_id = ?")) {
                del.setString(1, runId);
                del.executeUpdate();
            }
            StringBuilder csv = new StringBuilder();
            for (CoverageEntry e : CoverageEntry.flatten(coverage)) {
                Csv.row(csv, runId, e.provider(), e.accountId(), e.region(), e.service(), e.status().name(),
                        Long.toString(e.assetCount()), e.error());
            }
            copy.copyIn("COPY " + s + ".coverage (run_id, provider, account_id, region, service, status, asset_count, error) "
                    + "FROM STDIN (FORMAT csv)", new StringReader(csv.toString()));
            try (PreparedStatement del = c.prepareStatement("DELETE FROM " + s + ".throttling WHERE run_id = ?");
                 PreparedStatement delScopes = c.prepareStatement("DELETE FROM " + s + ".throttling_scopes WHERE run_id = ?")) {
                del.setString(1, runId);
                del.executeUpdate();
                delScopes.setString(1, runId);
                delScopes.executeUpdate();
            }
            if (throttling != null) {
                try (PreparedStatement t = c.prepareStatement("INSERT INTO " + s + ".throttling (run_id, report) VALUES (?, ?::jsonb)")) {
                    t.setString(1, runId);
                    t.setString(2, throttling);
                    t.executeUpdate();
                }
                try (PreparedStatement sc = c.prepareStatement("INSERT INTO " + s + ".throttling_scopes (run_id, scope, calls, "
                        + "throttled, transient_errors, retries, gave_up, rejected, breaker_trips, wait_seconds) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                    for (Map.Entry<String, Counts> e : scopes.entrySet()) {
                        Counts n = e.getValue();
                        sc.setString(1, runId);
                        sc.setString(2, e.getKey());
                        sc.setLong(3, n.calls());
                        sc.setLong(4, n.throttled());
                        sc.setLong(5, n.transientErrors());
                        sc.setLong(6, n.retries());
                        sc.setLong(7, n.gaveUp());
                        sc.setLong(8, n.rejected());
                        sc.setLong(9, n.breakerTrips());
                        sc.setDouble(10, n.waitSeconds());
                        sc.addBatch();
                    }
                    sc.executeBatch();
                }
            }
            try (PreparedStatement r = c.prepareStatement("UPDATE " + s + ".runs SET finished_at = ?, state = 'finished', "
                    + "complete = ?, asset_count = (SELECT count(*) FROM " + s + ".run_assets WHERE run_seq = ?), "
                    + "summary = ?::jsonb, run = ?::jsonb, failure = NULL, loaded_from = ? WHERE run_id = ?")) {
                r.setTimestamp(1, Timestamp.from(finishedAt));
                r.setBoolean(2, complete);
                r.setLong(3, runSeq);
                r.setString(4, summary);
                r.setString(5, run);
                r.setString(6, loadedFrom);
                r.setString(7, runId);
                r.executeUpdate();
            }
            c.commit();
        } catch (SQLException | IOException | RuntimeException e) {
            rollback();
            throw e;
        }
    }

    private void rollback() {
        try {
            c.rollback();
        } catch (SQLException e) {
            // the connection is gone; the caller's error says why
        }
    }

    @Override
    public void close() {
        PostgresSpec.closeQuietly(c);
    }

    private static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What identifies an asset's content: a SHA-1 of its service, name, ARN, tags and attributes. */
    static String digest(Asset a, String tagsJson, String attributesJson) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-1");
            for (String part : new String[] {a.service(), a.name(), a.arn(), tagsJson, attributesJson}) {
                md.update(part == null ? new byte[] {0} : (part + "\u0001").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** CSV as PostgreSQL's {@code COPY ... (FORMAT csv)} reads it: null unquoted and empty, text quoted. */
    static final class Csv {
        private Csv() {
        }

        static void row(StringBuilder out, String... fields) {
            for (int i = 0; i < fields.length; i++) {
                if (i > 0) {
                    out.append(',');
                }
                String f = fields[i];
                if (f != null) {
                    out.append('"').append(f.replace("\"", "\"\"")).append('"');
                }
            }
            out.append('\n');
        }
    }

}
