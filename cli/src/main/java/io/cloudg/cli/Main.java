package io.cloudg.cli;

import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.cli.log.LogSetup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code cloudg}: the command-line entry point. See {@link ExitCodes} for what it exits with. */
@Command(name = "cloudg", mixinStandardHelpOptions = true, version = "cloudg 0.1.0",
        description = "Maps very large cloud estates without tripping API quotas, and says what it could not see.",
        subcommands = {MapCommand.class, WorkerCommand.class, SimCommand.class, RatelimitCommand.class, McpCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @Option(names = "--log-format", paramLabel = "text|json", scope = ScopeType.INHERIT,
            description = "log lines as text or JSON objects, on stderr (default: text, or CLOUDG_LOG_FORMAT)")
    LogSetup.Format logFormat;

    @Option(names = "--log-level", paramLabel = "LEVEL", scope = ScopeType.INHERIT, converter = LevelConverter.class,
            description = "error, warn, info, debug or trace (default: info, or CLOUDG_LOG_LEVEL); other libraries' "
                    + "loggers speak only from debug")
    LogSetup.LogLevel logLevel;

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
        cl.setExecutionStrategy(parsed -> {
            configureLogging(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
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

    /** Logging as {@code --log-format} and {@code --log-level} say, wherever on the command line they are. */
    static void configureLogging(CommandLine.ParseResult parsed) {
        LogSetup.Format format = LogSetup.defaultFormat();
        LogSetup.LogLevel level = LogSetup.defaultLevel();
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--log-format")) {
                format = p.matchedOptionValue("--log-format", format);
            }
            if (p.hasMatchedOption("--log-level")) {
                level = p.matchedOptionValue("--log-level", level);
            }
        }
        LogSetup.apply(format, level, ConsoleLine.stderr());
    }

    /** Level names as users write them: {@code info}, {@code INFO}, {@code warning}. */
    static final class LevelConverter implements CommandLine.ITypeConverter<LogSetup.LogLevel> {
        @Override
        public LogSetup.LogLevel convert(String value) {
            LogSetup.LogLevel l = LogSetup.LogLevel.parse(value);
            if (l == null) {
                throw new CommandLine.TypeConversionException("expected one of error, warn, info, debug, trace but was '"
                        + value + "'");
            }
            return l;
        }
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
