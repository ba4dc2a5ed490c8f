package io.cloudg.destination.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.destination.RunStart;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.inventory.MapReader;
import io.cloudg.resilience.report.Counts;
import io.cloudg.config.StartupException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts a finished map into PostgreSQL after the fact ({@code cloudg load}): the map a run wrote while its
 * database was down or unreachable, or any map kept on disk. The rows are those the run would have streamed
 * ({@link PostgresDestination}, fed from the map's head and its streamed assets, in batches), so a loaded run
 * and a streamed one read back alike; the run row records where it was loaded from ({@code loaded_from}).
 * Loading is idempotent by run id: a run whose row is {@code finished} is left as it is ("already loaded"),
 * and one left {@code running} (its stream broke off) or {@code failed} is completed over what it wrote
 * before, without a duplicate row. A run that never wrote its map ({@code running} forever) is marked
 * {@code failed} with the reason ({@link #markFailed}). One connection, migrated like a destination's.
 */
public final class PostgresLoad implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private final PostgresSpec spec;
    private final Connection c;

    private PostgresLoad(PostgresSpec spec, Connection c) {
        this.spec = spec;
        this.c = c;
    }

    /**
     * Connects and migrates the schema (creating it if needed).
     *
     * @throws StartupException one line naming the destination: unreachable, login refused, a schema of a newer
     *         cloudg or one that is not cloudg's
     */
    public static PostgresLoad open(PostgresSpec spec) {
        return new PostgresLoad(spec, spec.connectMigrated());
    }

    public PostgresSpec spec() {
        return spec;
    }

    /** What loading one map did. */
    public enum Outcome { LOADED, ALREADY_LOADED }

    /**
     * One map's load.
     *
     * @param before the run row's state before ({@code running}, {@code failed}; null when there was none)
     * @param assets the run's assets in the database now
     * @param entries its coverage entries
     */
    public record Result(String runId, Outcome outcome, String before, long assets, long entries) {
    }

    /** A run row still {@code running}: started at {@code startedAt}. */
    public record Running(String runId, Instant startedAt) {
    }

    /**
     * Loads the map in {@code mapFile} (an {@code inventory-map.json}).
     *
     * @throws StartupException naming the file when it is not a finished cloudg map this build reads
     * @throws SQLException as the server answered (the run row then stays as it was, or {@code running}: a
     *         second load completes it)
     */
    public Result load(Path mapFile) throws SQLException {
        try (MapReader map = open(mapFile)) {
            if (!InventoryMapWriter.FORMAT.equals(map.format())) {
                throw new StartupException(map.file() + " is in format " + map.format() + "; this cloudg loads "
                        + InventoryMapWriter.FORMAT);
            }
            JsonNode run = map.run();
            String runId = text(map, run, "id");
            Instant startedAt = instant(map, run, "started_at");
            Instant finishedAt = instant(map, run, "finished_at");
            List<String> providers = new ArrayList<>();
            run.path("providers").forEach(p -> providers.add(p.asText()));
            String before = state(runId);
            if ("finished".equals(before)) {
                return new Result(runId, Outcome.ALREADY_LOADED, before, assetCount(runId), coverageCount(runId));
            }
            PostgresDestination d = new PostgresDestination(spec, c, map.file().toAbsolutePath().toString());
            try {
                d.begin(new RunStart(runId, text(map, run, "mode"), providers, startedAt));
                Iterator<Asset> assets = map.assets();
                List<Asset> batch = new ArrayList<>(spec.batchSize());
                while (assets.hasNext()) {
                    batch.add(assets.next());
                    if (batch.size() >= spec.batchSize()) {
                        d.write(batch);
                        batch = new ArrayList<>(spec.batchSize());
                    }
                }
                if (!batch.isEmpty()) {
                    d.write(batch);
                }
                List<CoverageRecord> coverage = map.coverage();
                JsonNode throttling = map.throttling();
                d.finish(finishedAt, complete(map.summary(), coverage), JSON.writeValueAsString(map.summary()),
                        JSON.writeValueAsString(run), coverage,
                        throttling.isNull() ? null : JSON.writeValueAsString(throttling), scopes(throttling));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the map " + map.file() + ": " + e.getMessage(), e);
            } catch (SQLException | RuntimeException e) {
                rollback();
                throw e;
            }
            return new Result(runId, Outcome.LOADED, before, assetCount(runId), coverageCount(runId));
        }
    }

    private static MapReader open(Path mapFile) {
        try {
            return MapReader.open(mapFile);
        } catch (UncheckedIOException e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    private static String text(MapReader map, JsonNode run, String field) {
        String v = run.path(field).asText("");
        if (v.isBlank()) {
            throw new StartupException(map.file() + " is not a finished cloudg map: its run block has no " + field);
        }
        return v;
    }

    private static Instant instant(MapReader map, JsonNode run, String field) {
        String v = text(map, run, field);
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw new StartupException(map.file() + ": run." + field + " must be an ISO-8601 instant, but was " + v, e);
        }
    }

    /** Every service entry SUCCESS, as the summary counts them (as {@code Summary.complete()} says of a live run). */
    static boolean complete(JsonNode summary, List<CoverageRecord> coverage) {
        JsonNode services = summary.path("services");
        if (services.isObject()) {
            return services.path("PARTIAL").asInt(0) == 0 && services.path("FAILED").asInt(0) == 0;
        }
        return CoverageEntry.flatten(coverage).stream().allMatch(e -> e.status() == CoverageStatus.SUCCESS);
    }

    /** The throttling block's scopes as the report's counters ({@code wait_seconds} back to nanoseconds). */
    static Map<String, Counts> scopes(JsonNode throttling) {
        Map<String, Counts> out = new LinkedHashMap<>();
        throttling.path("scopes").properties().forEach(e -> {
            JsonNode n = e.getValue();
            out.put(e.getKey(), new Counts(n.path("calls").asLong(), n.path("throttled").asLong(),
                    n.path("transient_errors").asLong(), n.path("retries").asLong(), n.path("gave_up").asLong(),
                    n.path("rejected").asLong(), n.path("breaker_trips").asLong(),
                    Math.round(n.path("wait_seconds").asDouble() * 1e9)));
        });
        return out;
    }

    /** The run row's state, or null when there is none. */
    public String state(String runId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT state FROM " + spec.schema() + ".runs WHERE run_id = ?")) {
            ps.setString(1, runId);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            } finally {
                endRead();
            }
        }
    }

    private long assetCount(String runId) throws SQLException {
        return count("SELECT count(*) FROM " + spec.schema() + ".run_assets ra JOIN " + spec.schema()
                + ".runs r ON r.run_seq = ra.run_seq WHERE r.run_id = ?", runId);
    }

    private long coverageCount(String runId) throws SQLException {
        return count("SELECT count(*) FROM " + spec.schema() + ".coverage WHERE run_id = ?", runId);
    }

    private long count(String sql, String runId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, runId);
            try (ResultSet r = ps.executeQuery()) {
                r.next();
                return r.getLong(1);
            } finally {
                endRead();
            }
        }
    }

    /** The run rows still {@code running}, oldest first. */
    public List<Running> running() throws SQLException {
        List<Running> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT run_id, started_at FROM " + spec.schema()
                + ".runs WHERE state = 'running' ORDER BY started_at, run_seq"); ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                out.add(new Running(r.getString(1), r.getTimestamp(2).toInstant()));
            }
        } finally {
            endRead();
        }
        return out;
    }

    /**
     * Marks the {@code running} run {@code runId} {@code failed} with {@code reason} (its rows stay: what it
     * wrote before it broke off).
     *
     * @throws IllegalArgumentException naming the run when there is no such row or it is not running
     */
    public void markFailed(String runId, String reason) throws SQLException {
        String state = state(runId);
        if (state == null) {
            throw new IllegalArgumentException("no run " + runId + " in " + spec.describe());
        }
        if (!state.equals("running")) {
            throw new IllegalArgumentException("run " + runId + " is " + state + " in " + spec.describe()
                    + ": only a running run can be marked failed");
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + spec.schema() + ".runs SET state = 'failed', "
                + "failure = ? WHERE run_id = ? AND state = 'running'")) {
            ps.setString(1, reason);
            ps.setString(2, runId);
            ps.executeUpdate();
            endRead();
        } catch (SQLException | RuntimeException e) {
            rollback();
            throw e;
        }
    }

    /** Ends the transaction of a read or an update when the connection is not in autocommit (after a load it is not). */
    private void endRead() throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    private void rollback() {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException e) {
            // the connection is gone; the caller's error says why
        }
    }

    @Override
    public void close() {
        PostgresSpec.closeQuietly(c);
    }
}
