package io.cloudg.cli.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import java.io.PrintStream;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * How cloudg logs, set once per command from {@code --log-format} and {@code --log-level} (or
 * {@code CLOUDG_LOG_FORMAT} / {@code CLOUDG_LOG_LEVEL}): every line on standard error with a timestamp;
 * {@code text} as {@code 2025-01-01T12:00:00.123Z INFO cloudg.map: message {run_id=..., task_id=...}},
 * {@code json} one object per line in the Elastic Common Schema's logging layout ({@link EcsEncoder}:
 * {@code @timestamp}, {@code log.level}, {@code message}, the logger, the thread, the MDC's run, task, provider,
 * account and region, the event's key-value pairs, the exception). The level names are the same in both:
 * {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN}, {@code ERROR}.
 *
 * <p>The end-of-run summary ({@value #SUMMARY_LOGGER}) is written at every level: in JSON it is the one place the
 * run's outcome is told, standard output being left for data.
 *
 * <p>Until the command has started ({@link #started()}), its lines are held back ({@link StartupGate}), and a
 * command that cannot start drops them ({@link #failedToStart()}): a start-up failure is one line on stderr.
 * At {@code debug} and {@code trace} every line is written as it comes.
 *
 * <p>cloudg's own loggers ({@code cloudg.*}, {@code io.cloudg.*}) log at the chosen level; every other
 * logger (the AWS, Azure and Google SDKs, msal4j, gRPC, Netty, Kafka, Redisson, Jetty) stays silent
 * unless the level is {@code debug} (their warnings and errors) or {@code trace} (their info too): a
 * failure reaches the user as cloudg's one line, not as the SDK's chatter before it.
 */
public final class LogSetup {
    /** The text layout: ISO-8601 timestamp, level, logger, message, MDC when set. */
    public static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} %level "
            + "%logger: %msg%replace( {%mdc}){' \\{\\}', ''}%n%ex";

    /** The logger of a map's end-of-run summary in JSON mode: enabled at every level. */
    public static final String SUMMARY_LOGGER = "cloudg.summary";

    public enum Format { text, json }

    public enum LogLevel {
        error(Level.ERROR), warn(Level.WARN), info(Level.INFO), debug(Level.DEBUG), trace(Level.TRACE);

        final Level level;

        LogLevel(Level level) {
            this.level = level;
        }

        /** What other libraries' loggers log at this level: nothing, unless debugging. */
        Level thirdParty() {
            return this == trace ? Level.INFO : this == debug ? Level.WARN : Level.OFF;
        }

        /** A level name as users write it ({@code WARNING}, {@code Info}...), or null. */
        public static LogLevel parse(String s) {
            if (s == null || s.isBlank()) {
                return null;
            }
            String v = s.trim().toLowerCase(Locale.ROOT);
            return v.equals("warning") ? warn : java.util.Arrays.stream(values()).filter(l -> l.name().equals(v))
                    .findFirst().orElse(null);
        }
    }

    /** The gate of the configuration {@link #apply} made last; null before. */
    private static volatile StartupGate gate;
    /** The format {@link #apply} set last (before: the environment's). */
    private static volatile Format format = defaultFormat();

    private LogSetup() {
    }

    /** The command has started: the lines held until now are written, and later ones as they come. */
    public static void started() {
        StartupGate g = gate;
        if (g != null) {
            g.open();
        }
    }

    /**
     * The command could not start: the lines held until now are dropped, and so is what is logged while the
     * process ends. Returns the messages of the warnings among them (e.g. an unknown configuration key).
     */
    public static java.util.List<String> failedToStart() {
        StartupGate g = gate;
        return g == null ? java.util.List.of() : g.drop();
    }

    /** The format log lines are written in. */
    public static Format format() {
        return format;
    }

    /** Whether log lines are JSON objects (then every line on standard error must be one). */
    public static boolean json() {
        return format == Format.json;
    }

    /**
     * Writes a line the command prints itself on standard error (a start-up failure, an internal error, a run
     * stopped): {@code cloudg: message} in text (with {@code error}'s stack trace after it), one ECS object at
     * {@code level} in JSON, so that every line on standard error parses.
     */
    public static void notice(PrintStream err, org.slf4j.event.Level level, String message, Throwable error) {
        notice(err, json(), level, message, error);
    }

    /** As {@link #notice(PrintStream, org.slf4j.event.Level, String, Throwable)}, in JSON or not as {@code json} says. */
    public static void notice(PrintStream err, boolean json, org.slf4j.event.Level level, String message,
                              Throwable error) {
        if (json) {
            byte[] b = EcsEncoder.line(io.cloudg.resilience.time.TimeSource.system().instant(), level.toString(), message, "cloudg", error);
            err.write(b, 0, b.length);
        } else {
            err.println("cloudg: " + message);
            if (error != null) {
                error.printStackTrace(err);
            }
        }
        err.flush();
    }

    /**
     * Whether {@code args} ask for JSON logs ({@code --log-format json}, else {@code CLOUDG_LOG_FORMAT}): for a
     * command line that does not parse, whose options were never applied.
     */
    public static boolean jsonAskedIn(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--log-format") && i + 1 < args.length) {
                return args[i + 1].trim().equalsIgnoreCase("json");
            }
            if (a.startsWith("--log-format=")) {
                return a.substring("--log-format=".length()).trim().equalsIgnoreCase("json");
            }
        }
        return defaultFormat() == Format.json;
    }

    /** The level from {@code CLOUDG_LOG_LEVEL} (info when unset or unreadable). */
    public static LogLevel defaultLevel() {
        LogLevel l = LogLevel.parse(System.getenv("CLOUDG_LOG_LEVEL"));
        return l == null ? LogLevel.info : l;
    }

    /** The format from {@code CLOUDG_LOG_FORMAT} (text when unset or unknown). */
    public static Format defaultFormat() {
        String f = System.getenv("CLOUDG_LOG_FORMAT");
        return f != null && f.trim().equalsIgnoreCase("json") ? Format.json : Format.text;
    }

    /** Reconfigures logging for this process: {@code format} to {@code console} (standard error), at {@code level}. */
    public static void apply(Format format, LogLevel level, ConsoleLine console) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return; // another SLF4J binding (an embedder's): theirs to configure
        }
        LogSetup.format = format;
        ctx.reset();
        LevelChangePropagator jul = new LevelChangePropagator();
        jul.setContext(ctx);
        jul.setResetJUL(true);
        jul.start();
        ctx.addListener(jul);

        ConsoleLineAppender appender = new ConsoleLineAppender();
        appender.setContext(ctx);
        appender.setName("CONSOLE-LINE");
        appender.setConsole(console);
        appender.setEncoder(encoder(format, ctx));
        appender.start();
        StartupGate g = new StartupGate(appender, level == LogLevel.debug || level == LogLevel.trace);
        g.setContext(ctx);
        g.setName("CONSOLE");
        g.start();
        gate = g;

        Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(level.thirdParty());
        root.addAppender(g);
        ctx.getLogger("cloudg").setLevel(level.level);
        ctx.getLogger("io.cloudg").setLevel(level.level);
        if (level.level.isGreaterOrEqual(Level.WARN)) {
            ctx.getLogger(SUMMARY_LOGGER).setLevel(Level.INFO); // the run's outcome, whatever the level
        }
    }

    static Encoder<ILoggingEvent> encoder(Format format, LoggerContext ctx) {
        if (format == Format.json) {
            EcsEncoder e = new EcsEncoder();
            e.setContext(ctx);
            e.start();
            return e;
        }
        PatternLayoutEncoder e = new PatternLayoutEncoder();
        e.setContext(ctx);
        e.setPattern(TEXT_PATTERN);
        e.setCharset(java.nio.charset.StandardCharsets.UTF_8);
        e.start();
        return e;
    }
}
