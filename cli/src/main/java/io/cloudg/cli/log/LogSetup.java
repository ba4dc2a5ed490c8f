package io.cloudg.cli.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * How cloudg logs, set once per command from {@code --log-format} and {@code --log-level} (or
 * {@code CLOUDG_LOG_FORMAT} / {@code CLOUDG_LOG_LEVEL}): every line on standard error with a timestamp;
 * {@code text} as {@code 2025-01-01T12:00:00.123Z INFO cloudg.map: message {run_id=..., task_id=...}},
 * {@code json} one object per line (Logback's {@code JsonEncoder}: timestamp, level, logger, thread, the
 * MDC's run, task, provider, account and region, the message, the exception).
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
    /** The text layout: ISO-8601 timestamp, level (WARN spelt WARNING), logger, message, MDC when set. */
    public static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} %replace(%level){'^WARN$','WARNING'} "
            + "%logger: %msg%replace( {%mdc}){' \\{\\}', ''}%n%ex";

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
    }

    static Encoder<ILoggingEvent> encoder(Format format, LoggerContext ctx) {
        if (format == Format.json) {
            JsonEncoder e = new JsonEncoder();
            e.setContext(ctx);
            e.setWithSequenceNumber(false);
            e.setWithNanoseconds(false);
            e.setWithContext(false);
            e.setWithMessage(false);
            e.setWithArguments(false);
            e.setWithFormattedMessage(true);
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
