package io.cloudg.cli;

import io.cloudg.destination.postgres.PostgresRuns;
import io.cloudg.destination.postgres.PostgresSpec;
import io.cloudg.diff.DiffReport;
import io.cloudg.diff.DiffSide;
import io.cloudg.diff.MapDiff;
import io.cloudg.diff.SortedAssets;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.config.StartupException;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudg diff OLD NEW}: what changed between two runs, read from map files, run directories or output
 * directories, or with {@code --postgres URL} from PostgreSQL by run id ({@code latest}, {@code previous}).
 * Exit codes as {@code diff(1)}: 0 no change, 1 something changed, 2 the runs could not be read.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Shows what changed between two runs: assets added, removed and changed (which fields), "
                + "and coverage entries that got better or worse.",
                "OLD and NEW are map files, run directories (OUT/runs/<id>) or output directories (their newest run); "
                        + "with --postgres, run ids (or latest, previous) in PostgreSQL.",
                "Exit codes: 0 nothing changed, 1 something changed, 2 could not start (a run could not be read)."})
final class DiffCommand implements Callable<Integer> {
    static final int SAME = 0;
    static final int CHANGED = 1;

    @Parameters(index = "0", paramLabel = "OLD", description = "the earlier run")
    String before;

    @Parameters(index = "1", paramLabel = "NEW", description = "the later run")
    String after;

    @Option(names = "--json", description = "write the diff as JSON (format cloudg.diff/1) with every change")
    boolean json;

    @Option(names = "--postgres", paramLabel = "URL", description = "read OLD and NEW as run ids from PostgreSQL")
    String postgres;

    @Option(names = "--schema", paramLabel = "NAME", description = "with --postgres: the schema (default cloudg)")
    String schema;

    @Option(names = "--limit", paramLabel = "N", description = "text: lines shown per kind of change (default 50)")
    int limit = 50;

    @Option(names = "--tmp", paramLabel = "DIR", description = "where large maps are sorted (default: the system's temporary directory)")
    Path tmp;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        Path work = tmp != null ? tmp : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            if (limit < 0) {
                throw ConfigErrors.mustBe("--limit", "an integer >= 0", limit);
            }
            if (postgres == null && schema != null) {
                throw ConfigErrors.invalid("--schema", "names a PostgreSQL schema: pass --postgres URL with it");
            }
            return postgres != null ? fromPostgres(out, work) : fromFiles(out, work);
        } catch (StartupException | IllegalArgumentException e) {
            err.println("cloudg: " + e.getMessage());
            return ExitCodes.CANNOT_START;
        } catch (UncheckedIOException e) {
            err.println("cloudg: " + e.getMessage());
            return ExitCodes.CANNOT_START;
        } catch (SQLException e) {
            err.println("cloudg: PostgreSQL: " + e.getMessage().lines().findFirst().orElse(""));
            return ExitCodes.CANNOT_START;
        }
    }

    private int fromFiles(PrintStream out, Path work) {
        try (DiffSide x = DiffSide.ofMap(Path.of(before), work, SortedAssets.DEFAULT_BUDGET);
             DiffSide y = DiffSide.ofMap(Path.of(after), work, SortedAssets.DEFAULT_BUDGET)) {
            return report(x, y, out, work);
        }
    }

    private int fromPostgres(PrintStream out, Path work) throws SQLException {
        PostgresSpec spec = PostgresSpec.of("--postgres", postgres);
        if (schema != null) {
            spec = spec.withSchema("--schema", schema);
        }
        try (PostgresRuns runs = PostgresRuns.open(spec);
             DiffSide x = runs.side(runs.find(before));
             DiffSide y = runs.side(runs.find(after))) {
            return report(x, y, out, work);
        }
    }

    private int report(DiffSide x, DiffSide y, PrintStream out, Path work) {
        try (DiffReport report = new DiffReport(work)) {
            MapDiff.Counts c = MapDiff.compare(x, y, report);
            if (json) {
                BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                report.writeJson(w, x, y, c);
                try {
                    w.write('\n');
                    w.flush();
                } catch (java.io.IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else {
                report.writeText(out, x, y, c, limit);
            }
            return c.any() ? CHANGED : SAME;
        }
    }
}
