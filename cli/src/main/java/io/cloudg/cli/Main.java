package io.cloudg.cli;

import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.cli.log.LogSetup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import org.slf4j.event.Level;

/** {@code cloudg}: the command-line entry point. See {@link ExitCodes} for what it exits with. */
@Command(name = "cloudg", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Maps very large cloud estates without tripping API quotas, and says what it could not see.",
                "The configuration is --config FILE, else $CLOUDG_CONFIG, else ./cloudg.yaml; ${VAR} and ${VAR:-default} "
                        + "in its values come from the environment.",
                "Exit codes: 0 done (map: every coverage entry SUCCESS; diff: no change), 1 internal error (a bug: please "
                        + "report it; diff: something changed), 2 could not start (one line on stderr says why), 3 map done "
                        + "with PARTIAL or FAILED coverage or a failed destination."},
        subcommands = {MapCommand.class, DiffCommand.class, LoadCommand.class, WorkerCommand.class, SimCommand.class, RatelimitCommand.class, McpCommand.class,
                CollectorsCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @Option(names = "--log-format", paramLabel = "text|json", scope = ScopeType.INHERIT,
            description = "log lines as text or JSON objects, on stderr (default: text, or CLOUDG_LOG_FORMAT)")
    LogSetup.Format logFormat;

    @Option(names = "--log-level", paramLabel = "LEVEL", scope = ScopeType.INHERIT, converter = LevelConverter.class,
            description = "error, warn, info, debug or trace (default: info, or CLOUDG_LOG_LEVEL); other libraries' "
                    + "loggers speak only from debug")
    LogSetup.LogLevel logLevel;

    public static void main(String[] args) {
        virtualThreadCarriers();
        routeJulToSlf4j();
        System.exit(run(args));
    }

    /**
     * At least 8 carrier threads for the virtual threads where the machine has fewer cores (the JVM's default is one
     * a core), unless {@code -Djdk.virtualThreadScheduler.parallelism} was given: read once, when the first virtual
     * thread starts, so this runs first. A virtual thread blocked on a monitor while loading a class keeps its
     * carrier (it cannot unmount there). On 2 cores two of them, blocked on a jar file's lock whose holder waited
     * for a monitor an unmounted virtual thread held, stopped a map for good (JDK 25: `map --sim` in the build's
     * class-data training run, and a fleet test). With more carriers than such threads at once, that virtual thread
     * has a carrier to finish on. This is the second line: the first is that jobs start only once the classes a map
     * loads are loaded on platform threads ({@link io.cloudg.preload.ClassPreload}); it holds where there is no class
     * list (the training run itself, a build without the archive, the tests). Eight were not always enough: the
     * training run, under load, had all 8 held so (2026-12-05), and now gives itself a carrier per job
     * (cli/src/build/class-data-archive.sh); a test JVM's in-process map too (pom.xml's test JVM settings). So a JVM
     * started with no class list ({@code cloudg.preload.classes} unset: the jar run by hand, an image without the
     * list) gets {@value #CARRIERS_WITHOUT_CLASS_LIST} carriers: carriers are made only while virtual threads wait
     * to run, so this costs threads only in a burst, and it makes the stop rarer, not impossible (a map with more
     * jobs at once than carriers can still have them all held: only the class list's preload rules it out).
     */
    static void virtualThreadCarriers() {
        String key = "jdk.virtualThreadScheduler.parallelism";
        if (System.getProperty(key) != null) {
            return;
        }
        if (System.getProperty("cloudg.preload.classes") == null) {
            System.setProperty(key, Integer.toString(CARRIERS_WITHOUT_CLASS_LIST));
        } else if (Runtime.getRuntime().availableProcessors() < 8) {
            System.setProperty(key, "8");
        }
    }

    /** Carrier threads for the virtual threads of a JVM that preloads no class list ({@link #virtualThreadCarriers}). */
    static final int CARRIERS_WITHOUT_CLASS_LIST = 512;

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
            String startup = StartupFailures.line(e);
            if (startup != null) {
                // the one line: the log lines held while the command started are dropped, its warnings kept in it
                LogSetup.notice(System.err, Level.ERROR, StartupFailures.withWarnings(startup, LogSetup.failedToStart()),
                        null);
                return ExitCodes.CANNOT_START;
            }
            return internalError(e);
        });
        cl.setParameterExceptionHandler((e, a) -> {
            CommandLine c = e.getCommandLine();
            String help = c.getParent() == null ? "cloudg --help" : c.getCommandSpec().qualifiedName() + " --help";
            LogSetup.notice(System.err, LogSetup.jsonAskedIn(args), Level.ERROR, e.getMessage() + " (see " + help + ")", null);
            return ExitCodes.CANNOT_START;
        });
        try {
            return cl.execute(args);
        } catch (RuntimeException | Error e) {
            // picocli hands the handler above exceptions only: an Error (a class missing from the class path, a
            // stack overflow) would end the main thread alone, and any thread that is not a daemon (a server's)
            // would keep the process alive with nothing listening
            return internalError(e);
        } finally {
            LogSetup.started(); // a short command that never said it started: its lines, now
        }
    }

    /** Exit code 1: the line and the stack trace, for a bug report. */
    static int internalError(Throwable e) {
        LogSetup.started(); // what was logged before an internal error helps to report it
        LogSetup.notice(System.err, Level.ERROR, "internal error: " + e, e);
        return ExitCodes.INTERNAL_ERROR;
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
        new CommandLine(this).usage(System.err);
        throw new CommandLine.ParameterException(new CommandLine(this), "a command is required: map, worker, sim, mcp, "
                + "diff, load, ratelimit, collectors or completion");
    }
}
