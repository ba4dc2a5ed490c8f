package io.cloudg.cli.log;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * What the process knows of the terminal its standard error goes to: whether there is one (the live status
 * line is drawn on standard error, so that is the stream that matters: {@code cloudg map > out.txt} on a terminal
 * still shows it, {@code cloudg map 2> log.txt} does not), and its width in columns.
 *
 * <p>Standard error is a terminal when {@code /proc/self/fd/2} links to a terminal device ({@code /dev/pts/N},
 * {@code /dev/ttyN}; Linux), else when {@code test -t 2} says so in a shell sharing it (other Unixes); never with
 * {@code TERM=dumb}. The width is {@code COLUMNS} when it is set, else what {@code stty size} reads from
 * {@code /dev/tty}, read again after the terminal is resized ({@code SIGWINCH}, where the JVM lets a handler be
 * installed); 80 when neither answers.
 */
public final class Terminals {
    /** The width assumed when the terminal does not say. */
    public static final int DEFAULT_WIDTH = 80;

    private static volatile int width = -1;
    private static volatile boolean watching;

    private Terminals() {
    }

    /** Whether standard error is a terminal a status line can be redrawn on. */
    public static boolean stderrIsTerminal() {
        return stderrIsTerminal(System.getenv(), Path.of("/proc/self/fd/2"));
    }

    static boolean stderrIsTerminal(Map<String, String> env, Path fd2) {
        if ("dumb".equals(env.get("TERM"))) {
            return false;
        }
        if (Files.isSymbolicLink(fd2)) {
            try {
                return isTerminalDevice(Files.readSymbolicLink(fd2).toString());
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
        if (Files.exists(Path.of("/proc/self"))) {
            return false; // Linux without a link for fd 2: closed
        }
        try {
            Process p = new ProcessBuilder("sh", "-c", "test -t 2").redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code /dev/pts/3}, {@code /dev/tty}, {@code /dev/tty1}, {@code /dev/ttys002} (macOS): a terminal; {@code /dev/null}, pipes, files: not. */
    static boolean isTerminalDevice(String target) {
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    }

    /** The terminal's width in columns, as now known (read once, and again after a resize). */
    public static IntSupplier width() {
        return Terminals::currentWidth;
    }

    private static int currentWidth() {
        int w = width;
        if (w < 0) {
            watchResizes();
            w = read(System.getenv("COLUMNS"));
            width = w;
        }
        return w;
    }

    /** The width from {@code COLUMNS} (when a positive number), else from {@code stty size}, else 80. */
    static int read(String columns) {
        Integer c = parse(columns);
        if (c != null) {
            return c;
        }
        Integer s = stty();
        return s != null ? s : DEFAULT_WIDTH;
    }

    static Integer parse(String columns) {
        if (columns == null || !columns.trim().matches("\\d{1,5}")) {
            return null;
        }
        int c = Integer.parseInt(columns.trim());
        return c > 0 ? c : null;
    }

    /** {@code stty size} on {@code /dev/tty}: "rows columns"; null when there is no terminal to ask. */
    static Integer stty() {
        File tty = new File("/dev/tty");
        if (!tty.exists()) {
            return null;
        }
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(tty).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(2, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            String[] parts = out.split("\\s+");
            return parts.length == 2 ? parse(parts[1]) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** After {@code SIGWINCH} the width is read again from the terminal, unless {@code COLUMNS} fixes it. */
    private static synchronized void watchResizes() {
        if (watching) {
            return;
        }
        watching = true;
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("WINCH"), s -> {
                Integer w = parse(System.getenv("COLUMNS")) != null ? null : stty();
                if (w != null) {
                    width = w;
                }
            });
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // no such signal here, or the JVM keeps it: the width read at the start stays
        }
    }
}
