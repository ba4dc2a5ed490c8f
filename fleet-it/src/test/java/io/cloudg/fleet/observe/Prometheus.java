package io.cloudg.fleet.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.fleet.local.FreePorts;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Prometheus server (Debian's {@code prometheus} package, as {@code .ci/run} installs it) and its
 * {@code promtool}, for tests. Where they are not installed, {@link #requireInstalled()} skips the test
 * with the reason, unless {@code CLOUDG_REQUIRE_PROMETHEUS} is set (CI sets it): then it fails.
 */
public final class Prometheus implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newHttpClient();

    private Prometheus(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** The path of {@code name} on the PATH (or in /usr/bin), if any. */
    static Optional<Path> binary(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.add("/usr/bin");
        for (String d : dirs) {
            Path p = Path.of(d.isEmpty() ? "." : d, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Skips (or, under CI, fails) the calling test when {@code prometheus} and {@code promtool} are missing. */
    public static void requireInstalled() {
        boolean found = binary("prometheus").isPresent() && binary("promtool").isPresent();
        String why = "Prometheus is not installed here (no prometheus/promtool on the PATH): install Debian's "
                + "package (apt-get install -y prometheus, as root; .ci/run does) to run this test";
        if (!found && System.getenv("CLOUDG_REQUIRE_PROMETHEUS") != null) {
            throw new AssertionError(why + " -- CLOUDG_REQUIRE_PROMETHEUS is set, so it must run");
        }
        Assumptions.assumeTrue(found, why);
    }

    /**
     * Starts Prometheus on a free port scraping {@code targets} (job name to host:port) every second,
     * with its data in {@code dir}; returns once it is ready.
     */
    public static Prometheus start(Path dir, Map<String, String> targets) throws IOException, InterruptedException {
        requireInstalled();
        StringBuilder yml = new StringBuilder("global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}\n"
                + "scrape_configs:\n");
        targets.forEach((job, target) -> yml.append("  - job_name: ").append(job).append('\n')
                .append("    static_configs: [{targets: [\"").append(target).append("\"]}]\n"));
        Files.createDirectories(dir);
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, yml);
        int port = FreePorts.next();
        Path log = dir.resolve("prometheus.log");
        Process p = new ProcessBuilder(binary("prometheus").orElseThrow().toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Prometheus prom = new Prometheus(p, port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!prom.ready()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                prom.close();
                throw new IllegalStateException("Prometheus did not start: " + Files.readString(log));
            }
            Thread.sleep(100);
        }
        return prom;
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** GET an API path, e.g. {@code /api/v1/targets}; the {@code data} of the answer. */
    public JsonNode api(String pathAndQuery) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(r.body());
            if (!"success".equals(body.path("status").asText())) {
                throw new IllegalStateException("Prometheus answered " + r.statusCode() + ": " + r.body());
            }
            return body.get("data");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The instant vector of a PromQL query, as (labels, value) pairs. */
    public List<Map.Entry<JsonNode, Double>> query(String promql) {
        JsonNode data = api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        List<Map.Entry<JsonNode, Double>> out = new ArrayList<>();
        for (JsonNode s : data.get("result")) {
            out.add(Map.entry(s.get("metric"), Double.parseDouble(s.get("value").get(1).asText())));
        }
        return out;
    }

    /** The single value of a query that yields one series (e.g. a {@code sum}); empty when it yields none. */
    public Optional<Double> value(String promql) {
        List<Map.Entry<JsonNode, Double>> v = query(promql);
        if (v.size() > 1) {
            throw new AssertionError(promql + " gave " + v.size() + " series: " + v);
        }
        return v.isEmpty() ? Optional.empty() : Optional.of(v.get(0).getValue());
    }

    /** The metric names Prometheus holds any series of that match {@code selector} (e.g. {@code {job="x"}}). */
    public java.util.Set<String> names(String selector) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        api("/api/v1/label/__name__/values?match[]=" + URLEncoder.encode(selector, StandardCharsets.UTF_8))
                .forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Each scrape target's job and health ({@code up}, {@code down}, {@code unknown}). */
    public Map<String, String> targets() {
        Map<String, String> out = new java.util.TreeMap<>();
        for (JsonNode t : api("/api/v1/targets").get("activeTargets")) {
            out.put(t.at("/labels/job").asText(), t.get("health").asText() + " " + t.path("lastError").asText());
        }
        return out;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** What Prometheus logged (for failure messages). */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
