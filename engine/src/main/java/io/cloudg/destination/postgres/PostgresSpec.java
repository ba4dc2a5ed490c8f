package io.cloudg.destination.postgres;

import io.cloudg.destination.Destination;
import io.cloudg.destination.DestinationSpec;
import io.cloudg.destination.Destinations;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.config.StartupException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A PostgreSQL destination as configured:
 * <pre>{@code
 * destinations:
 *   - type: postgres
 *     url: postgresql://cloudg@db.internal:5432/inventory?sslmode=require
 *     schema: cloudg              # default cloudg
 *     password_env: CLOUDG_PG_PASSWORD   # else the URL's password, else PGPASSWORD
 *     batch_size: 5000            # assets per COPY
 * }</pre>
 * The password comes from the URL if it carries one, else from the variable {@code password_env} names
 * (which must then be set), else from {@code PGPASSWORD}, else none (trust or peer authentication).
 *
 * @param key where it was configured ({@code destinations[0]}, {@code --postgres}), for messages
 * @param env the process environment (tests pass their own)
 */
public record PostgresSpec(String key, PostgresUrl url, String schema, String passwordEnv, int batchSize,
                           UnaryOperator<String> env) implements DestinationSpec {
    public static final String TYPE = "postgres";
    public static final String DEFAULT_SCHEMA = "cloudg";
    static final Set<String> KEYS = Set.of("type", "url", "schema", "password_env", "batch_size");
    static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** A statement that has not answered in this long fails the destination (a hung server never hangs the map). */
    static final int SOCKET_TIMEOUT_SECONDS = 300;

    public PostgresSpec {
        requireSchema(key + ".schema", schema);
        if (batchSize < 1) {
            throw ConfigErrors.mustBe(key + ".batch_size", "an integer >= 1", batchSize);
        }
    }

    /** {@code --postgres URL}: the default schema and batch size, the password from the URL or PGPASSWORD. */
    public static PostgresSpec of(String key, String url) {
        return new PostgresSpec(key, PostgresUrl.parse(key, url), DEFAULT_SCHEMA, null, Destinations.DEFAULT_BATCH,
                System::getenv);
    }

    /** One {@code type: postgres} entry of {@code destinations}. */
    public static PostgresSpec load(ConfigNode n) {
        n.warnUnknown(KEYS);
        String url = n.string("url", null);
        if (url == null) {
            throw ConfigErrors.mustBe(n.key("url"), "set (a PostgreSQL URL like postgresql://user@host:5432/db)", "(unset)");
        }
        return new PostgresSpec(n.path(), PostgresUrl.parse(n.key("url"), url), n.string("schema", DEFAULT_SCHEMA),
                n.string("password_env", null, ENV_NAME, "the name of an environment variable"),
                n.integer("batch_size", Destinations.DEFAULT_BATCH, 1), System::getenv);
    }

    public PostgresSpec withSchema(String s) {
        return new PostgresSpec(key, url, s, passwordEnv, batchSize, env);
    }

    /**
     * The schema as a setting of its own gave it ({@code schemaKey}, e.g. {@code --schema}), which a refusal
     * names: the user wrote that flag, not {@code --postgres.schema}.
     */
    public PostgresSpec withSchema(String schemaKey, String s) {
        return withSchema(requireSchema(schemaKey, s));
    }

    private static String requireSchema(String key, String schema) {
        if (schema == null || !SCHEMA.matcher(schema).matches()) {
            throw ConfigErrors.mustBe(key, "a lower-case SQL name like cloudg", schema);
        }
        return schema;
    }

    public PostgresSpec withBatchSize(int n) {
        return new PostgresSpec(key, url, schema, passwordEnv, n, env);
    }

    public PostgresSpec withEnv(UnaryOperator<String> e) {
        return new PostgresSpec(key, url, schema, passwordEnv, batchSize, e);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String describe() {
        return "postgres " + url.display() + " (schema " + schema + ")";
    }

    /** The password to log in with: the URL's, else {@code password_env}'s variable, else PGPASSWORD; null for none. */
    String password() {
        if (url.password() != null) {
            return url.password();
        }
        if (passwordEnv != null) {
            String p = env.apply(passwordEnv);
            if (p == null || p.isEmpty()) {
                throw ConfigErrors.mustBe(key + ".password_env", "the name of a set environment variable", passwordEnv);
            }
            return p;
        }
        return env.apply("PGPASSWORD");
    }

    /** A new connection (autocommit on). */
    public Connection connect() throws SQLException {
        Properties p = new Properties();
        if (url.user() != null) {
            p.setProperty("user", url.user());
        }
        String pw = password();
        if (pw != null) {
            p.setProperty("password", pw);
        }
        p.setProperty("ApplicationName", "cloudg");
        p.setProperty("connectTimeout", "10");
        p.setProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT_SECONDS));
        p.setProperty("reWriteBatchedInserts", "true");
        return DriverManager.getConnection(url.jdbcUrl(), p);
    }

    /** Connects and migrates the schema: the connection a destination or a reader works with. */
    public Connection connectMigrated() {
        Connection c = null;
        try {
            c = connect();
            PostgresSchema.migrate(c, schema);
            return c;
        } catch (SQLException | IllegalStateException e) {
            closeQuietly(c);
            throw new StartupException(describe() + ": " + oneLine(e), e);
        }
    }

    /**
     * Connects to read runs back ({@code cloudg diff --postgres}): nothing is created or migrated, so a role with
     * SELECT on the schema's tables reads, and a schema that does not exist is refused rather than created
     * empty.
     *
     * @throws StartupException one line naming the schema: it does not exist, holds no cloudg runs or is of
     *         another cloudg version; or the server's answer
     */
    public Connection connectForReading() {
        Connection c = null;
        try {
            c = connect();
            PostgresSchema.requireReadable(c, schema, describe());
            c.setReadOnly(true);
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new StartupException(describe() + ": " + oneLine(e), e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    @Override
    public Destination open() {
        return new PostgresDestination(this, connectMigrated());
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse("").trim();
    }

    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing a connection that failed: nothing more to do
            }
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
