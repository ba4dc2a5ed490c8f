package io.cloudg.fleet.observe;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Prometheus's own checker: {@code promtool check metrics} (exposition lint) and {@code check rules}. */
public final class Promtool {
    /** What promtool said and its exit status. */
    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private Promtool() {
    }

    /** {@code promtool check metrics} on {@code exposition} (fed on standard input). */
    public static Result checkMetrics(String exposition) throws IOException, InterruptedException {
        return run(List.of("check", "metrics"), exposition);
    }

    /** {@code promtool check rules FILE}. */
    public static Result checkRules(Path file) throws IOException, InterruptedException {
        return run(List.of("check", "rules", file.toString()), null);
    }

    /** {@code promtool test rules FILE} (the rules' unit tests). */
    public static Result testRules(Path file) throws IOException, InterruptedException {
        return run(List.of("test", "rules", file.toString()), null);
    }

    /** {@code promtool check config FILE}. */
    public static Result checkConfig(Path file) throws IOException, InterruptedException {
        return run(List.of("check", "config", file.toString()), null);
    }

    private static Result run(List<String> args, String stdin) throws IOException, InterruptedException {
        Prometheus.requireInstalled();
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Prometheus.binary("promtool").orElseThrow().toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("promtool " + args + " did not finish");
        }
        return new Result(p.exitValue(), out);
    }
}
