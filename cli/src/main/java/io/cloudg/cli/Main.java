package io.cloudg.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cloudg}: the command-line entry point. See {@link ExitCodes} for what it exits with. */
@Command(name = "cloudg", mixinStandardHelpOptions = true, version = "cloudg 0.1.0",
        description = "Maps very large cloud estates without tripping API quotas, and says what it could not see.",
        subcommands = {MapCommand.class, DiffCommand.class, WorkerCommand.class, SimCommand.class, RatelimitCommand.class,
                McpCommand.class, CollectorsCommand.class, CommandLine.HelpCommand.class})
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
            cmd.getErr().println("cloudg: internal error: " + e);
            e.printStackTrace(cmd.getErr());
            return ExitCodes.INTERNAL_ERROR;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("cloudg: " + e.getMessage());
            e.getCommandLine().getErr().println("(see cloudg " + e.getCommandLine().getCommandName() + " --help)");
            return ExitCodes.CANNOT_START;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
