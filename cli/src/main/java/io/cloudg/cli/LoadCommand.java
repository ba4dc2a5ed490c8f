package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.destination.DestinationSpec;
import io.cloudg.destination.postgres.PostgresLoad;
import io.cloudg.destination.postgres.PostgresSpec;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.inventory.RunFiles;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.config.StartupException;
import io.cloudg.resilience.time.TimeSource;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudg load PATH --postgres URL}: puts finished maps into PostgreSQL after the fact, for a map whose
 * database write failed (the database was down: its run row stayed {@code running}) or any map kept on disk.
 * PATH is a map file, a run directory ({@code OUT/runs/<id>}) or an output directory (every run kept under
 * its {@code runs/}, oldest first). Each run is loaded once: a run already {@code finished} in the database is
 * left as it is. {@code --mark-failed RUN_ID} marks a run that never wrote its map (its row {@code running}
 * forever) {@code failed}, with {@code --reason}. Without {@code --postgres}, the configuration's PostgreSQL
 * destinations. See docs/postgres.md.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Loads finished maps into PostgreSQL after the fact (a map written while the database was down, "
                + "or any map kept on disk), and marks runs that never wrote their map failed.",
                "PATH is a map file, a run directory (OUT/runs/<id>) or an output directory (every run kept in it). "
                        + "A run already loaded is left as it is; one left running in the database is completed.",
                "Into --postgres URL (password from the URL or PGPASSWORD), else the configuration's postgres "
                        + "destinations.",
                "Exit codes: 0 done (loaded, or already loaded), 2 could not load (no such path, not a cloudg map, "
                        + "a schema of another cloudg, the database unreachable or failing; one line says which)."})
final class LoadCommand implements Callable<Integer> {
    static final String DEFAULT_REASON = "interrupted: its map was never written";

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "a map file, a run directory or an "
            + "output directory")
    Path path;

    @Option(names = "--postgres", paramLabel = "URL", description = "postgresql://user@host:5432/db (password from the URL "
            + "or PGPASSWORD; default: the configuration's postgres destinations)")
    String postgres;

    @Option(names = "--schema", paramLabel = "NAME", description = "with --postgres: the schema (default cloudg)")
    String schema;

    @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration (its destinations, "
            + "without --postgres)")
    Path config;

    @Option(names = "--mark-failed", paramLabel = "RUN_ID", description = "mark this run, still running in the "
            + "database but whose map was never written (the map stopped, its pod was lost), failed (repeatable)")
    List<String> markFailed = new ArrayList<>();

    @Option(names = "--reason", paramLabel = "TEXT", description = "with --mark-failed: why (default: \""
            + DEFAULT_REASON + "\")")
    String reason;

    /** The clock of the time a run is marked failed at (a test passes a manual one). */
    TimeSource time = TimeSource.system();

    @Override
    public Integer call() {
        PrintStream out = System.out;
        if (path == null && markFailed.isEmpty()) {
            throw new StartupException("load needs a PATH (a map file, a run directory or an output directory) or "
                    + "--mark-failed RUN_ID (see cloudg load --help)");
        }
        if (postgres == null && schema != null) {
            throw ConfigErrors.invalid("--schema", "names a PostgreSQL schema: pass --postgres URL with it");
        }
        if (reason != null && markFailed.isEmpty()) {
            throw ConfigErrors.invalid("--reason", "is the reason of --mark-failed: pass --mark-failed RUN_ID with it");
        }
        List<Path> maps = path == null ? List.of() : maps(path);
        List<PostgresSpec> targets = targets();
        for (PostgresSpec spec : targets) {
            try (PostgresLoad load = PostgresLoad.open(spec)) {
                into(load, maps, out);
            } catch (SQLException e) {
                throw new StartupException(spec.describe() + ": " + e.getMessage().lines().findFirst().orElse("").trim()
                        + " (a run being loaded stays running: load it again)", e);
            }
        }
        return ExitCodes.OK;
    }

    private void into(PostgresLoad load, List<Path> maps, PrintStream out) throws SQLException {
        String where = load.spec().describe();
        Set<String> onDisk = new LinkedHashSet<>();
        for (Path map : maps) {
            PostgresLoad.Result r = load.load(map);
            onDisk.add(r.runId());
            if (r.outcome() == PostgresLoad.Outcome.ALREADY_LOADED) {
                out.printf("run %s: already loaded into %s (%d assets, %d coverage entries); nothing changed%n",
                        r.runId(), where, r.assets(), r.entries());
            } else {
                out.printf("run %s: loaded into %s: %d assets, %d coverage entries%s%n", r.runId(), where, r.assets(),
                        r.entries(), r.before() == null ? "" : " (its row was " + r.before() + "; now finished)");
            }
        }
        for (String id : markFailed) {
            try {
                load.markFailed(id, (reason == null ? DEFAULT_REASON : reason) + " (marked by cloudg load at "
                        + time.instant() + ")");
            } catch (IllegalArgumentException e) {
                throw new StartupException("--mark-failed " + id + ": " + e.getMessage(), e);
            }
            out.printf("run %s: marked failed in %s%n", id, where);
        }
        for (PostgresLoad.Running r : load.running()) {
            if (!onDisk.contains(r.runId())) {
                out.printf("run %s: still running in %s (since %s); if it stopped without writing its map, mark it: "
                        + "cloudg load --postgres URL --mark-failed %s%n", r.runId(), where, r.startedAt(), r.runId());
            }
        }
    }

    /** Where to load: --postgres, else the configuration's postgres destinations. */
    private List<PostgresSpec> targets() {
        if (postgres != null) {
            PostgresSpec spec = PostgresSpec.of("--postgres", postgres);
            return List.of(schema == null ? spec : spec.withSchema(schema));
        }
        List<PostgresSpec> out = new ArrayList<>();
        for (DestinationSpec d : CloudGConfig.from(ConfigLocation.load(config)).output().destinations()) {
            if (d instanceof PostgresSpec p) {
                out.add(p);
            }
        }
        if (out.isEmpty()) {
            throw new StartupException("nothing to load into: give --postgres URL, or configure a destination of type "
                    + "postgres in cloudg.yaml (destinations)");
        }
        return out;
    }

    /**
     * The map files {@code p} names: a file itself; a run directory's map; an output directory's kept runs
     * (oldest first), else its top-level map.
     */
    static List<Path> maps(Path p) {
        if (!Files.exists(p)) {
            throw new StartupException("no such file or directory: " + p);
        }
        if (Files.isDirectory(p) && Files.isDirectory(p.resolve(RunFiles.RUNS))) {
            List<Path> out = new ArrayList<>();
            for (String id : RunFiles.runIds(p)) {
                Path map = p.resolve(RunFiles.RUNS).resolve(id).resolve(InventoryMapWriter.FILE_NAME);
                if (Files.isRegularFile(map)) {
                    out.add(map);
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
        }
        try {
            return List.of(RunFiles.mapFile(p));
        } catch (UncheckedIOException e) {
            throw new StartupException(e.getMessage() + " (not a cloudg map, run directory or output directory)", e);
        }
    }
}
