package io.cloudg.fleet.local;

import io.cloudg.resilience.time.TimeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process this one started, with its output in a log file. {@link #stop} asks it to end (SIGTERM) and
 * waits; {@link #kill} ends it at once (SIGKILL, as a crash would).
 */
public final class ChildProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} in {@code workDir}, stdout and stderr to {@code log}. */
    public static ChildProcess start(String name, List<String> command, Path workDir, Path log) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            return new ChildProcess(name, pb.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    /** {@code java} of this JVM with {@code jvmArgs}, a class path and a main class. */
    public static List<String> java(String classpath, List<String> jvmArgs, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The exit status once ended, else null. */
    public Integer exitValue() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** SIGTERM, then waits up to {@code timeout}, then SIGKILL. Returns the exit status. */
    public int stop(Duration timeout) {
        process.destroy();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** SIGKILL and waits for the end. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the process to end on its own; returns its status, or null on timeout. */
    public Integer waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The last {@code lines} lines of its log, for error messages. */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Waits until something accepts TCP connections on {@code port}, or the process ends, or {@code timeout}. */
    public void awaitPort(String host, int port, Duration timeout) {
        TimeSource time = TimeSource.system();
        long deadline = time.nanoTime() + timeout.toNanos();
        while (time.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " ended with status " + process.exitValue() + ":\n" + tail(30));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 200);
                return;
            } catch (IOException e) {
                try {
                    time.sleep(100_000_000L);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for " + name, x);
                }
            }
        }
        throw new IllegalStateException(name + " did not open port " + port + " within " + timeout + ":\n" + tail(30));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop(Duration.ofSeconds(10));
        }
    }
}
