package io.cloudg.destination.postgres;

import io.cloudg.config.StartupException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The tables cloudg writes, created and migrated by cloudg itself: each {@link Migration} has a version and
 * runs once, recorded in {@code <schema>.schema_version}; the missing ones are applied together in one
 * transaction under a transaction-scoped advisory lock, so two processes never migrate the same schema at
 * once and a failed migration leaves nothing half done. A schema migrated by a newer
 * cloudg is refused rather than written in a shape this one does not know. docs/postgres.md describes
 * the tables.
 */
public final class PostgresSchema {
    /** One step of the schema's history; {@code sql} uses {@code {s}} for the schema. */
    public record Migration(int version, String description, String sql) {
    }

    /**
     * Every migration, oldest first. Never edit one that has shipped: add the next. {@code assets} leaves room
     * on its pages (fillfactor 80) and indexes no column a run rewrites ({@code last_seen_run}), so that a
     * run that sees an asset unchanged updates it in place (a HOT update: no index written, GIN included).
     */
    static final List<Migration> MIGRATIONS = List.of(new Migration(1, "runs, assets, versions, coverage, throttling", """
            CREATE TABLE {s}.runs (
              run_seq      bigserial UNIQUE,
              run_id       text PRIMARY KEY,
              mode         text NOT NULL,
              providers    text[] NOT NULL,
              started_at   timestamptz NOT NULL,
              finished_at  timestamptz,
              state        text NOT NULL CHECK (state IN ('running', 'finished')),
              complete     boolean,
              asset_count  bigint,
              summary      jsonb,
              run          jsonb
            );
            CREATE TABLE {s}.assets (
              asset_id       bigserial UNIQUE,
              provider       text NOT NULL,
              account_id     text NOT NULL,
              region         text NOT NULL,
              type           text NOT NULL,
              id             text NOT NULL,
              service        text,
              name           text,
              arn            text,
              tags           jsonb NOT NULL DEFAULT '{}',
              attributes     jsonb NOT NULL DEFAULT '{}',
              digest         text NOT NULL,
              first_seen_run text NOT NULL,
              last_seen_run  text NOT NULL,
              PRIMARY KEY (provider, account_id, region, type, id)
            ) WITH (fillfactor = 80);
            CREATE INDEX assets_account ON {s}.assets (account_id);
            CREATE INDEX assets_type ON {s}.assets (type);
            CREATE INDEX assets_tags ON {s}.assets USING gin (tags);
            CREATE TABLE {s}.asset_versions (
              version_id     bigserial PRIMARY KEY,
              asset_id       bigint NOT NULL,
              digest         text NOT NULL,
              service        text,
              name           text,
              arn            text,
              tags           jsonb NOT NULL,
              attributes     jsonb NOT NULL,
              first_seen_run text NOT NULL,
              UNIQUE (asset_id, digest)
            );
            CREATE TABLE {s}.run_assets (
              run_seq    bigint NOT NULL,
              asset_id   bigint NOT NULL,
              version_id bigint NOT NULL,
              PRIMARY KEY (run_seq, asset_id)
            );
            CREATE TABLE {s}.coverage (
              run_id      text NOT NULL REFERENCES {s}.runs (run_id) ON DELETE CASCADE,
              provider    text NOT NULL,
              account_id  text NOT NULL,
              region      text NOT NULL,
              service     text NOT NULL,
              status      text NOT NULL CHECK (status IN ('SUCCESS', 'PARTIAL', 'FAILED')),
              asset_count bigint NOT NULL,
              error       text,
              PRIMARY KEY (run_id, provider, account_id, region, service)
            );
            CREATE INDEX coverage_status ON {s}.coverage (run_id, status);
            CREATE TABLE {s}.throttling (
              run_id text PRIMARY KEY REFERENCES {s}.runs (run_id) ON DELETE CASCADE,
              report jsonb NOT NULL
            );
            CREATE TABLE {s}.throttling_scopes (
              run_id           text NOT NULL REFERENCES {s}.runs (run_id) ON DELETE CASCADE,
              scope            text NOT NULL,
              calls            bigint NOT NULL,
              throttled        bigint NOT NULL,
              transient_errors bigint NOT NULL,
              retries          bigint NOT NULL,
              gave_up          bigint NOT NULL,
              rejected         bigint NOT NULL,
              breaker_trips    bigint NOT NULL,
              wait_seconds     double precision NOT NULL,
              PRIMARY KEY (run_id, scope)
            );
            CREATE VIEW {s}.run_asset_rows AS
              SELECT r.run_id, a.provider, a.account_id, a.region, a.type, a.id, v.service, v.name, v.arn,
                     v.tags, v.attributes
              FROM {s}.run_assets ra
              JOIN {s}.runs r ON r.run_seq = ra.run_seq
              JOIN {s}.assets a ON a.asset_id = ra.asset_id
              JOIN {s}.asset_versions v ON v.version_id = ra.version_id;
            """), new Migration(2, "runs: failed state with its reason, loaded_from", """
            ALTER TABLE {s}.runs DROP CONSTRAINT runs_state_check;
            ALTER TABLE {s}.runs ADD CONSTRAINT runs_state_check CHECK (state IN ('running', 'finished', 'failed'));
            ALTER TABLE {s}.runs ADD COLUMN failure text;
            ALTER TABLE {s}.runs ADD COLUMN loaded_from text;
            """));

    /** The version this build writes. */
    public static int current() {
        return MIGRATIONS.get(MIGRATIONS.size() - 1).version();
    }

    private PostgresSchema() {
    }

    /**
     * Creates {@code schema} if needed and applies the migrations it lacks; returns the versions applied now.
     *
     * @throws SQLException as the server answered
     * @throws IllegalStateException when the schema is newer than this build
     */
    public static List<Integer> migrate(Connection c, String schema) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            java.util.ArrayList<Integer> applied = new java.util.ArrayList<>();
            try (Statement st = c.createStatement()) {
                st.execute("SELECT pg_advisory_xact_lock(hashtext('cloudg.schema.' || '" + schema + "'))");
                st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
                st.execute("CREATE TABLE IF NOT EXISTS " + schema + ".schema_version (version integer PRIMARY KEY, "
                        + "description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
                int at = version(c, schema);
                if (at > current()) {
                    throw new IllegalStateException("the schema " + schema + " is at version " + at
                            + ", newer than this cloudg knows (" + current() + "): upgrade cloudg");
                }
                for (Migration m : MIGRATIONS) {
                    if (m.version() > at) {
                        st.execute(m.sql().replace("{s}", schema));
                        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + schema
                                + ".schema_version (version, description) VALUES (?, ?)")) {
                            ins.setInt(1, m.version());
                            ins.setString(2, m.description());
                            ins.executeUpdate();
                        }
                        applied.add(m.version());
                    }
                }
            }
            c.commit();
            return applied;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /**
     * Checks, with reads only, that {@code schema} holds runs this build reads: it exists, it is cloudg's (it
     * has {@code schema_version}) and it is at this build's version.
     *
     * @param where what the messages name first ({@code postgres URL (schema s)})
     * @throws StartupException one line naming the schema when not
     */
    static void requireReadable(Connection c, String schema, String where) throws SQLException {
        if (!any(c, "SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?", schema)) {
            throw new StartupException(where + ": there is no schema " + schema + " (nothing was mapped into it; "
                    + "--schema names the schema a map wrote to, by default " + PostgresSpec.DEFAULT_SCHEMA + ")");
        }
        if (!any(c, "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = ? AND tablename = 'schema_version'", schema)) {
            throw new StartupException(where + ": the schema " + schema + " holds no cloudg runs (it has no "
                    + schema + ".schema_version)");
        }
        int at = version(c, schema);
        if (at > current()) {
            throw new StartupException(where + ": the schema " + schema + " is at version " + at
                    + ", newer than this cloudg knows (" + current() + "): upgrade cloudg");
        }
        if (at < current()) {
            throw new StartupException(where + ": the schema " + schema + " is at version " + at + ", older than this "
                    + "cloudg reads (" + current() + "): a map by this cloudg into it migrates it");
        }
    }

    private static boolean any(Connection c, String sql, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, value);
            try (ResultSet r = ps.executeQuery()) {
                return r.next();
            }
        }
    }

    /** The schema's version (0 before the first migration). */
    public static int version(Connection c, String schema) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet r = st.executeQuery("SELECT coalesce(max(version), 0) FROM " + schema + ".schema_version")) {
            r.next();
            return r.getInt(1);
        }
    }
}
