package io.cloudg.cli.log;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The terminal's last line, shared by a live status line ({@code [12/40 tasks] ... ETA 0:42}, redrawn in
 * place with {@code \r}) and the log lines written to the same stream. One lock orders both: a log line
 * first clears the status line, is written whole, and the status line is drawn again below it; a status
 * redraw never lands in the middle of a log line. So log output reads as lines above the status line
 * instead of {@code ETA --:--INFO cloudg.aws: ...}.
 *
 * <p>The status line is fitted to the terminal's width ({@link StatusFit}: least important fields dropped first),
 * so that it never wraps: a wrapped line would leave a stale row at every redraw.
 *
 * <p>{@link #stderr()} writes to whatever {@code System.err} is at each write (tests replace it).
 */
public final class ConsoleLine {
    static final String CLEAR = "\r\u001b[K";
    private static final ConsoleLine STDERR = new ConsoleLine(() -> System.err, Terminals.width());

    private final Supplier<PrintStream> out;
    private final IntSupplier width;
    private String status;
    private boolean drawn;

    /** A console as wide as the terminal of standard error ({@link Terminals#width()}). */
    public ConsoleLine(Supplier<PrintStream> out) {
        this(out, Terminals.width());
    }

    /** A console {@code width} columns wide (asked at each redraw). */
    public ConsoleLine(Supplier<PrintStream> out, IntSupplier width) {
        this.out = out;
        this.width = width;
    }

    /** The process's standard error. */
    public static ConsoleLine stderr() {
        return STDERR;
    }

    /** Draws {@code line} as the status line, in place of the previous one, fitted to the terminal's width. */
    public synchronized void status(String full) {
        String line = StatusFit.fit(full, width.getAsInt());
        PrintStream o = out.get();
        o.print(CLEAR + line);
        o.flush();
        status = line;
        drawn = true;
    }

    /** Removes the status line (the cursor is left at the start of an empty line). */
    public synchronized void clear() {
        if (drawn) {
            PrintStream o = out.get();
            o.print(CLEAR);
            o.flush();
        }
        drawn = false;
        status = null;
    }

    /** Whether a status line is on screen. */
    public synchronized boolean showing() {
        return drawn;
    }

    /**
     * Writes log output: the status line is cleared first and, if the output ends a line, drawn again
     * after it.
     */
    public synchronized void write(byte[] b, int off, int len) {
        PrintStream o = out.get();
        if (drawn) {
            o.print(CLEAR);
        }
        o.write(b, off, len);
        if (drawn) {
            if (len > 0 && b[off + len - 1] == '\n') {
                o.print(status);
            } else {
                drawn = false; // the output left a partial line: the next status() starts afresh
            }
        }
        o.flush();
    }

    /** An output stream onto {@link #write} (what the log appender writes to). */
    public OutputStream stream() {
        return new OutputStream() {
            @Override
            public void write(int b) {
                ConsoleLine.this.write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                ConsoleLine.this.write(b, off, len);
            }

            @Override
            public void flush() {
                out.get().flush();
            }
        };
    }

    /** {@code s} as this console would write it (tests). */
    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
