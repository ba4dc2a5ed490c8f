package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.destination.DestinationStatus;
import io.cloudg.destination.postgres.PostgresSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The output options of {@code cloudg map} (a picocli mixin, so that {@code MapCommand} only wires them):
 * {@code --postgres URL} adds a PostgreSQL destination, {@code --keep N} sets how many run directories stay,
 * {@code --retry-failed PATH} re-collects what an earlier map could not see.
 */
final class OutputOptions {
    @Option(names = "--postgres", paramLabel = "URL", description = "also write the run to PostgreSQL while it streams "
            + "(postgresql://user@host:5432/db; password from the URL, PGPASSWORD or the config's password_env; "
            + "schema cloudg; see docs/postgres.md)")
    String postgres;

    @Option(names = "--keep", paramLabel = "N", description = "run directories kept under OUT/runs (default: keep_runs, "
            + "else 5)")
    Integer keep;

    @Option(names = "--retry-failed", paramLabel = "PATH", description = "re-collect only the PARTIAL and FAILED entries "
            + "of the map at PATH (a map file, a run directory or an output directory) and write a run merging them "
            + "with its successes")
    Path retryFailed;

    /** These options over the configuration. */
    CloudGConfig.Builder apply(CloudGConfig.Builder b) {
        if (postgres != null) {
            b.output(o -> o.withDestination(PostgresSpec.of("--postgres", postgres)));
        }
        if (keep != null) {
            b.output(o -> o.withKeepRuns(keep));
        }
        return b;
    }

    /**
     * The exit code of a finished map: 4 when its files could not all be written where asked, else 0 when every
     * entry is SUCCESS and every destination took the run, 3 when coverage is PARTIAL or FAILED somewhere or a
     * destination failed (the map is complete either way).
     */
    static int exitCode(InventoryResult r) {
        if (r.writeProblem() != null) {
            return ExitCodes.NOT_WRITTEN;
        }
        return r.complete() && !r.destinationFailed() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** One line per destination that failed, for the closing lines. */
    static void reportDestinations(InventoryResult r, PrintStream out) {
        for (DestinationStatus d : r.destinations()) {
            if (d.failed()) {
                out.println("Destination FAILED: " + d.target() + ": " + d.error() + " (" + d.assetsWritten()
                        + " assets written before; the map has them all)");
            } else {
                out.println("Destination " + d.target() + ": " + d.assetsWritten() + " assets written");
            }
        }
    }
}
