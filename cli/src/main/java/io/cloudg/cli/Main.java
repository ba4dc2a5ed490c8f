package io.cloudg.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cloudg}: the command-line entry point. See {@link ExitCodes} for what it exits with. */
@Command(name = "cloudg", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Maps very large cloud estates without tripping API quotas, and says what it could not see.",
                "The configuration is --config FILE, else $CLOUDG_CONFIG, else ./cloudg.yaml; ${VAR} and ${VAR:-default} "
                        + "in its values come from the environment.",
                "Exit codes: 0 done (map: every coverage entry SUCCESS; diff: no change), 1 internal error (a bug: please "
                        + "report it; diff: something changed), 2 could not start (one line on stderr says why), 3 map done "
                        + "with PARTIAL or FAILED coverage or a failed destination."},
        subcommands = {MapCommand.class, DiffCommand.class, WorkerCommand.class, SimCommand.class, RatelimitCommand.class, McpCommand.class,
                CollectorsCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        routeJulToSlf4j();
        System.exit(run(args));
    }

    /** gRPC and the Azure SDK log through java.util.logging: send it through the same configuration. */
    static void routeJulToSlf4j() {
        java.util.logging.LogManager.getLogManager().reset();
        org.slf4j.bridge.SLF4JBridgeHandler.install();
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.INFO);
    }

    /** Runs a command line and returns the exit code (tests call this). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String startup = StartupFailures.line(e);
            if (startup != null) {
                System.err.println("cloudg: " + startup);
                return ExitCodes.CANNOT_START;
            }
            System.err.println("cloudg: internal error: " + e);
            e.printStackTrace(System.err);
            return ExitCodes.INTERNAL_ERROR;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            CommandLine c = e.getCommandLine();
            String help = c.getParent() == null ? "cloudg --help" : c.getCommandSpec().qualifiedName() + " --help";
            System.err.println("cloudg: " + e.getMessage() + " (see " + help + ")");
            return ExitCodes.CANNOT_START;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
        throw new CommandLine.ParameterException(new CommandLine(this), "a command is required: map, worker, sim, mcp, "
                + "diff, ratelimit, collectors or completion");
    }
}
