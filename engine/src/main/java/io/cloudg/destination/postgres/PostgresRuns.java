package io.cloudg.destination.postgres;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.diff.DiffSide;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.Lookahead;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads runs back from PostgreSQL, for {@code cloudg diff --postgres URL OLD NEW}: a run named by its id, or
 * {@code latest} / {@code previous} (the newest finished run and the one before); its assets as that run saw
 * them (from {@code run_assets} and {@code asset_versions}, streamed in {@code COLLATE "C"} order by a
 * server-side cursor) and its coverage entries.
 */
public final class PostgresRuns implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> TAGS = new TypeReference<>() { };
    private static final TypeReference<Map<String, Object>> ATTRIBUTES = new TypeReference<>() { };
    private static final String ORDER = " ORDER BY a.provider COLLATE \"C\", a.account_id COLLATE \"C\", a.region COLLATE \"C\", "
            + "a.type COLLATE \"C\", a.id COLLATE \"C\"";

    private final PostgresSpec spec;
    private final Connection c;

    private PostgresRuns(PostgresSpec spec, Connection c) {
        this.spec = spec;
        this.c = c;
    }

    /**
     * Connects to read: SELECT only, nothing created or migrated ({@link PostgresSpec#connectForReading()}).
     *
     * @throws io.cloudg.config.StartupException naming the schema when it does not exist or holds no runs this
     *         cloudg reads
     */
    public static PostgresRuns open(PostgresSpec spec) {
        return new PostgresRuns(spec, spec.connectForReading());
    }

    /** A run row: its id, sequence and finish time. */
    public record Run(String runId, long seq, String finishedAt) {
    }

    /**
     * The run {@code ref} names: a run id, {@code latest} or {@code previous}.
     *
     * @throws IllegalArgumentException naming the reference when there is no such run
     */
    public Run find(String ref) throws SQLException {
        String s = spec.schema();
        String sql = switch (ref) {
            case "latest" -> "SELECT run_id, run_seq, finished_at FROM " + s + ".runs WHERE state = 'finished' "
                    + "ORDER BY run_seq DESC LIMIT 1";
            case "previous" -> "SELECT run_id, run_seq, finished_at FROM " + s + ".runs WHERE state = 'finished' "
                    + "ORDER BY run_seq DESC OFFSET 1 LIMIT 1";
            default -> "SELECT run_id, run_seq, finished_at FROM " + s + ".runs WHERE run_id = ?";
        };
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (!ref.equals("latest") && !ref.equals("previous")) {
                ps.setString(1, ref);
            }
            try (ResultSet r = ps.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalArgumentException("no run " + ref + " in " + spec.describe());
                }
                java.sql.Timestamp f = r.getTimestamp(3);
                return new Run(r.getString(1), r.getLong(2), f == null ? null : f.toInstant().toString());
            }
        }
    }

    /** The runs kept, oldest first. */
    public List<Run> runs() throws SQLException {
        List<Run> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT run_id, run_seq, finished_at FROM " + spec.schema()
                + ".runs ORDER BY run_seq"); ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                java.sql.Timestamp f = r.getTimestamp(3);
                out.add(new Run(r.getString(1), r.getLong(2), f == null ? null : f.toInstant().toString()));
            }
        }
        return out;
    }

    /** The coverage entries of {@code run}. */
    public List<CoverageEntry> coverage(Run run) throws SQLException {
        List<CoverageEntry> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT provider, account_id, region, service, status, asset_count, error FROM "
                + spec.schema() + ".coverage WHERE run_id = ? ORDER BY provider, account_id, region, service")) {
            ps.setString(1, run.runId());
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    out.add(new CoverageEntry(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                            CoverageStatus.valueOf(r.getString(5)), r.getLong(6), r.getString(7)));
                }
            }
        }
        return out;
    }

    /**
     * One side of a diff: {@code run}'s assets, sorted, read through a connection of its own (so that both
     * sides can stream at once), closed with the side.
     */
    public DiffSide side(Run run) throws SQLException {
        Connection own = spec.connect();
        try {
            own.setAutoCommit(false);
            String s = spec.schema();
            PreparedStatement ps = own.prepareStatement("SELECT a.provider, a.account_id, a.region, v.service, a.type, a.id, "
                    + "v.name, v.arn, v.tags::text, v.attributes::text FROM " + s + ".run_assets ra JOIN " + s
                    + ".assets a ON a.asset_id = ra.asset_id JOIN " + s + ".asset_versions v ON v.version_id = ra.version_id "
                    + "WHERE ra.run_seq = ?" + ORDER);
            ps.setFetchSize(5000);
            ps.setLong(1, run.seq());
            ResultSet rs = ps.executeQuery();
            Iterator<Asset> assets = new Lookahead<>() {
                @Override
                protected Asset fetch() {
                    try {
                        if (!rs.next()) {
                            return null;
                        }
                        return new Asset(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                                rs.getString(6), rs.getString(7), rs.getString(8), JSON.readValue(rs.getString(9), TAGS),
                                JSON.readValue(rs.getString(10), ATTRIBUTES));
                    } catch (SQLException | IOException e) {
                        throw new UncheckedIOException("cannot read run " + run.runId() + " from " + spec.describe() + ": "
                                + e.getMessage(), e instanceof IOException io ? io : new IOException(e));
                    }
                }
            };
            return new DiffSide("postgres run " + run.runId() + " in " + spec.describe(), run.runId(), run.finishedAt(), assets,
                    DiffSide.byId(coverage(run)), () -> {
                        rs.close();
                        ps.close();
                        own.close();
                    });
        } catch (SQLException | RuntimeException e) {
            PostgresSpec.closeQuietly(own);
            throw e;
        }
    }

    @Override
    public void close() {
        PostgresSpec.closeQuietly(c);
    }
}
