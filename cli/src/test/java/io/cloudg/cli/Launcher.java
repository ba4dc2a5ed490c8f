package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The launcher tier's kit: {@code ./cloudg} from the repository's root, as the build left it in cli/target (the
 * launcher's class path and JVM options, never the test class path), each command in a directory of its own with
 * the learned rates under it ({@code XDG_CACHE_HOME}), no {@code CLOUDG_CONFIG} and this JVM as {@code JAVA_HOME}
 * (the one the class-data archive was made with). Deadlines are there to end a hang, never to measure anything.
 */
final class Launcher {
    /** The repository's root: failsafe runs in cli/. */
    static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    static final Path CLOUDG = ROOT.resolve("cloudg");
    /** A Java stack trace, or the JVM's report of an uncaught exception. */
    static final Pattern STACK_TRACE = Pattern.compile("^\\tat |^\\s+at [\\w.$/]+\\(.*\\)$|Exception in thread|^Caused by: ",
            Pattern.MULTILINE);
    /** How long a command may take before it counts as hung. */
    static final Duration HANG = Duration.ofMinutes(5);

    private Launcher() {
    }

    /** A fresh directory under cli/target/launcher-it for one test's files (kept after the run, for reading). */
    static Path workDir(String name) throws IOException {
        Path dir = ROOT.resolve("cli/target/launcher-it").resolve(name);
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return Files.createDirectories(dir);
    }

    static ProcessBuilder builder(Path dir, Map<String, String> env, List<String> args) {
        List<String> command = new ArrayList<>(List.of(CLOUDG.toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        Map<String, String> e = pb.environment();
        e.remove("CLOUDG_CONFIG");
        e.remove("JAVA_OPTS");
        e.remove("CLOUDG_JAVA_OPTS");
        e.remove("JAVA_TOOL_OPTIONS");
        e.put("JAVA_HOME", System.getProperty("java.home"));
        e.put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        e.putAll(env);
        return pb;
    }

    /** Runs {@code ./cloudg args} in {@code dir} to its end, stdin closed. */
    static Result run(Path dir, Map<String, String> env, String... args) {
        try (Running r = start(dir, env, args)) {
            r.stdin().close();
            return r.await(HANG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Result run(Path dir, String... args) {
        return run(dir, Map.of(), args);
    }

    /** Starts {@code ./cloudg args} in {@code dir}; stdout and stderr are collected as they come. */
    static Running start(Path dir, Map<String, String> env, String... args) {
        try {
            return new Running(String.join(" ", args), builder(dir, env, List.of(args)).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a finished command did. */
    record Result(String command, int exit, String out, String err) {
        /** Asserts the exit code and that stderr holds no stack trace; returns this. */
        Result exits(int expected) {
            assertThat(exit).as("./cloudg %s: exit code%nstdout:%n%s%nstderr:%n%s", command, out, err).isEqualTo(expected);
            assertNoStackTrace(command, err);
            return this;
        }
    }

    static void assertNoStackTrace(String command, String stderr) {
        assertThat(STACK_TRACE.matcher(stderr).find()).as("./cloudg %s printed a stack trace on stderr:%n%s", command, stderr)
                .isFalse();
    }

    /** Text a process writes, collected by a thread of its own; readers wait for lines with a deadline. */
    static final class Output {
        private final StringBuilder text = new StringBuilder();
        private boolean ended;

        Output(InputStream in, String name) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[8192];
                try (in) {
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                } catch (IOException closed) {
                    // the process ended
                } finally {
                    end();
                }
            }, name);
            t.setDaemon(true);
            t.start();
        }

        private synchronized void append(String s) {
            text.append(s);
            notifyAll();
        }

        private synchronized void end() {
            ended = true;
            notifyAll();
        }

        synchronized String text() {
            return text.toString();
        }

        /** Waits until the stream ends. */
        synchronized void awaitEnd(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (!ended && System.nanoTime() < deadline) {
                TimeUnit.NANOSECONDS.timedWait(this, deadline - System.nanoTime());
            }
        }

        /**
         * The first complete line at or after {@code from} (a character offset) that matches {@code line}, waiting
         * for it until {@code limit}; null when the stream ended or the limit passed without one.
         */
        synchronized Found awaitLine(Pattern line, int from, Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                int start = from;
                for (int nl; (nl = text.indexOf("\n", start)) >= 0; start = nl + 1) {
                    String l = text.substring(start, nl);
                    Matcher m = line.matcher(l);
                    if (m.find()) {
                        return new Found(m, l, nl + 1);
                    }
                }
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    return null;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    /** A matching line, the match, and where the text after the line starts. */
    record Found(Matcher match, String line, int next) {
        String group(int g) {
            return match.group(g);
        }
    }

    /** A running {@code ./cloudg}; closing it ends it and whatever it started. */
    static final class Running implements AutoCloseable {
        final String command;
        final Process process;
        final Output out;
        final Output err;

        Running(String command, Process process) {
            this.command = command;
            this.process = process;
            this.out = new Output(process.getInputStream(), "stdout of " + command);
            this.err = new Output(process.getErrorStream(), "stderr of " + command);
        }

        OutputStream stdin() {
            return process.getOutputStream();
        }

        /**
         * The first line of {@code stream} that matches, or a failure saying what the process wrote: when it ended
         * first, when {@code limit} passed, or as soon as it reports an uncaught exception (a server can print
         * one and go on running without ever getting ready).
         */
        Found expectLine(Output stream, Pattern line, Duration limit) throws InterruptedException {
            Pattern lineOrCrash = Pattern.compile("(?<expected>" + line.pattern() + ")|(?<crash>^Exception in thread )");
            Found f = stream.awaitLine(lineOrCrash, 0, limit);
            assertThat(f != null && f.match().group("expected") != null)
                    .as("./cloudg %s: no line matching %s (alive: %s)%nstdout:%n%s%nstderr:%n%s", command, line,
                            process.isAlive(), out.text(), err.text()).isTrue();
            Matcher m = line.matcher(f.line());
            assertThat(m.find()).isTrue();
            return new Found(m, f.line(), f.next());
        }

        /** Waits for the end, with the whole output. */
        Result await(Duration limit) {
            try {
                boolean ended = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(ended).as("./cloudg %s still running after %s%nstdout:%n%s%nstderr:%n%s", command, limit,
                        out.text(), err.text()).isTrue();
                out.awaitEnd(Duration.ofSeconds(30));
                err.awaitEnd(Duration.ofSeconds(30));
                return new Result(command, process.exitValue(), out.text(), err.text());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for ./cloudg " + command, e);
            }
        }

        /** SIGTERM, as a supervisor stops a server, then its end. */
        Result stop() {
            process.destroy(); // SIGTERM on Linux: the JVM runs its shutdown hooks
            return await(Duration.ofMinutes(1));
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
