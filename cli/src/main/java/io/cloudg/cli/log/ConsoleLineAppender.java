package io.cloudg.cli.log;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;

/**
 * Logback's console appender for cloudg: each event is encoded whole and written through the
 * {@link ConsoleLine} of standard error, so log lines print above a live status line rather than into it.
 * Used by {@code logback.xml} and by {@link LogSetup}.
 */
public class ConsoleLineAppender extends OutputStreamAppender<ILoggingEvent> {
    private ConsoleLine console = ConsoleLine.stderr();

    /** Writes through {@code c} instead of standard error (tests). */
    public void setConsole(ConsoleLine c) {
        this.console = c;
    }

    @Override
    public void start() {
        setOutputStream(console.stream());
        setImmediateFlush(true);
        super.start();
    }
}
