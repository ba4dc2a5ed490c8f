package io.cloudg.resilience.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Launches {@link FleetWorkerMain} as separate JVMs on this test's classpath and talks to them by line. */
final class FleetProcesses {
    static final class Worker implements AutoCloseable {
        final Process process;
        final BufferedReader out;
        final Writer in;

        Worker(Process p) {
            this.process = p;
            this.out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        }

        /** The next line starting with {@code prefix} (log lines are skipped); fails if the process ends first. */
        String await(String prefix) throws IOException {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            throw new IllegalStateException("worker ended before printing " + prefix + " (exit "
                    + (process.isAlive() ? "?" : process.exitValue()) + ")");
        }

        void send(String line) throws IOException {
            in.write(line + "\n");
            in.flush();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private FleetProcesses() {
    }

    static Worker start(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx128m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(FleetWorkerMain.class.getName());
        cmd.addAll(List.of(args));
        try {
            return new Worker(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
