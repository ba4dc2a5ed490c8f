package io.cloudg.bench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.estate.AwsType;
import io.cloudg.sim.quota.BucketStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Maps one generated estate with fleets of 1, 2 and 4 workers and prints the table of BENCHMARKS.md's
 * "Fleet" section. Everything is real and local: a Kafka broker and a Redis server as child processes
 * (started from the coordinator module's test class path), cloud-sim in this JVM (fresh for every fleet
 * size, same seed, so the same estate and quotas), worker JVMs and the coordinator run by the
 * {@code cloudg} launcher. Each worker is held to the same concurrency, so a bigger fleet means more
 * calls in flight; the shared governor keeps the fleet inside the quotas. Each fleet maps the estate once
 * to warm up (JIT, SDK clients, connections), then {@code --repeat} measured times, every map into the same
 * output directory (so that, as for a user mapping the same estate again, the previous map's sizes order
 * the tasks). Every map is checked against the simulator's truth before its time counts.
 *
 * <pre>
 * scripts/fleet-bench.sh [--workers 1,2,4] [--accounts 24] [--per-type 2] [--counts S3_BUCKET=300,...]
 *     [--latency-ms 60] [--threads 8] [--in-flight N (default: unset)] [--repeat 3]
 * </pre>
 */
public final class FleetScalingBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The options, with the defaults BENCHMARKS.md was measured with. */
    record Options(Path cloudg, String devClasspath, List<Integer> workers, int accounts, List<String> regions,
                   int perType, Map<AwsType, Integer> counts, int latencyMs, int threads, int inFlight, int repeat,
                   Path dir) {
        static Options parse(String[] args) throws IOException {
            Path cloudg = Path.of("cloudg");
            Path devcp = Path.of("coordinator/target/fleet-dev.classpath");
            List<Integer> workers = List.of(1, 2, 4);
            int accounts = 24;
            List<String> regions = List.of("us-east-1", "eu-west-1");
            int perType = 2;
            int latency = 60;
            int threads = 8;
            int inFlight = 0; // unset: a worker takes tasks while a thread would idle
            int repeat = 3;
            Map<AwsType, Integer> counts = new LinkedHashMap<>();
            Path dir = Path.of("target", "fleet-bench");
            for (int i = 0; i + 1 < args.length; i += 2) {
                String v = args[i + 1];
                switch (args[i]) {
                    case "--cloudg" -> cloudg = Path.of(v);
                    case "--dev-classpath" -> devcp = Path.of(v);
                    case "--workers" -> workers = Arrays.stream(v.split(",")).map(String::trim).map(Integer::valueOf).toList();
                    case "--accounts" -> accounts = Integer.parseInt(v);
                    case "--regions" -> regions = Arrays.stream(v.split(",")).map(String::trim).toList();
                    case "--per-type" -> perType = Integer.parseInt(v);
                    case "--latency-ms" -> latency = Integer.parseInt(v);
                    case "--threads" -> threads = Integer.parseInt(v);
                    case "--in-flight" -> inFlight = Integer.parseInt(v);
                    case "--repeat" -> repeat = Integer.parseInt(v);
                    case "--counts" -> {
                        for (String kv : v.split(",")) {
                            String[] p = kv.split("=");
                            counts.put(AwsType.valueOf(p[0].trim()), Integer.parseInt(p[1].trim()));
                        }
                    }
                    case "--dir" -> dir = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            String classes = devcp.toAbsolutePath().getParent().resolve("classes").toString();
            return new Options(cloudg.toAbsolutePath(), classes + ":" + Files.readString(devcp).trim(), workers, accounts,
                    regions, perType, counts, latency, threads, inFlight, repeat, dir.toAbsolutePath());
        }

        EstateSpec estate() {
            Map<AwsType, Integer> c = new LinkedHashMap<>(AwsSpec.uniformCounts(perType));
            c.putAll(counts);
            return EstateSpec.generated(accounts, regions, c)
                    .withLatency(new LatencySpec(Duration.ofMillis(latencyMs), Duration.ofMillis(latencyMs / 2)));
        }
    }

    /** One fleet size's outcome: the measured maps' times (their median counts), and the last map's numbers. */
    record Result(int workers, List<Double> runs, double wallSeconds, QuotaBound bound, long assets, long calls,
                  long throttled, long maxOverQuota) {
        double runSeconds() {
            List<Double> sorted = runs.stream().sorted().toList();
            int n = sorted.size();
            return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }

        String range() {
            return String.format(Locale.ROOT, "%.1f-%.1f", runs.stream().mapToDouble(d -> d).min().orElse(0),
                    runs.stream().mapToDouble(d -> d).max().orElse(0));
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        Files.createDirectories(o.dir());
        List<Process> services = new ArrayList<>();
        try {
            int kafkaPort = freePort();
            int redisPort = freePort();
            services.add(start(o.dir().resolve("kafka.log"), java(o, "kafka", "--port", kafkaPort, "--controller-port",
                    freePort(), "--dir", o.dir().resolve("kafka-" + kafkaPort))));
            services.add(start(o.dir().resolve("redis.log"), java(o, "redis", "--port", redisPort, "--dir",
                    o.dir().resolve("redis"))));
            awaitPort(kafkaPort, Duration.ofSeconds(120));
            awaitPort(redisPort, Duration.ofSeconds(30));
            System.out.printf(Locale.ROOT, "estate: %d accounts x %s, %d of each AWS type%s, %d ms (+%d ms jitter) per call; "
                            + "per worker: %s, %d threads; %d measured map(s) per fleet after one warm-up%n",
                    o.accounts(), o.regions(), o.perType(), o.counts().isEmpty() ? "" : " except " + o.counts(),
                    o.latencyMs(), o.latencyMs() / 2, o.inFlight() > 0 ? o.inFlight() + " tasks in flight"
                            : "tasks while a thread is idle", o.threads(), o.repeat());
            List<Result> results = new ArrayList<>();
            for (int n : o.workers()) {
                Result r = runOnce(o, n, kafkaPort, redisPort);
                results.add(r);
                System.out.printf(Locale.ROOT, "  %d worker(s): %s s (median %.1f), %d assets, %d calls, %d throttled%n",
                        n, r.runs(), r.runSeconds(), r.assets(), r.calls(), r.throttled());
            }
            System.out.println();
            System.out.println(table(results));
        } finally {
            for (Process p : services) {
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    static String table(List<Result> results) {
        Result one = results.stream().filter(r -> r.workers() == 1).findFirst().orElse(results.get(0));
        StringBuilder sb = new StringBuilder();
        sb.append("| workers | map time (s), median | range (s) | quota lower bound (s) | speed-up | scaling efficiency "
                + "| calls per map | throttled | buckets over quota |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            double speedup = one.runSeconds() / r.runSeconds();
            sb.append(String.format(Locale.ROOT, "| %d | %.1f | %s | %.1f | %.2fx | %.0f%% | %d | %d | %d |%n",
                    r.workers(), r.runSeconds(), r.range(), r.bound().seconds(), speedup,
                    100 * speedup * one.workers() / r.workers(), r.calls(), r.throttled(), r.maxOverQuota()));
        }
        Result last = results.get(results.size() - 1);
        sb.append(String.format(Locale.ROOT, "%nBusiest bucket of the measured map: %s, %d calls admitted.%n",
                last.bound().bucket(), last.bound().admitted()));
        return sb.toString();
    }

    static Result runOnce(Options o, int n, int kafkaPort, int redisPort) throws Exception {
        String name = "bench" + n + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
        EstateSpec estate = o.estate();
        Path runDir = o.dir().resolve(name);
        Files.createDirectories(runDir);
        List<Process> workers = new ArrayList<>();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).seed(7L).estate(estate).build())) {
            Path config = runDir.resolve("cloudg.yaml");
            Files.writeString(config, String.join("\n",
                    "providers: [aws]",
                    "aws:",
                    "  endpoint_url: " + sim.awsEndpoint(),
                    "  access_key_id: bench",
                    "  secret_access_key: bench",
                    "  org: true",
                    "  regions: [" + String.join(", ", o.regions()) + "]",
                    "ratelimit:",
                    "  backend: redis",
                    "  redis: {url: \"redis://127.0.0.1:" + redisPort + "\", key_prefix: " + name + ", fleet_size_hint: " + n + "}",
                    "fleet:",
                    "  kafka: {bootstrap_servers: \"127.0.0.1:" + kafkaPort + "\"}",
                    "  topics: {prefix: " + name + ", task_partitions: 16, result_partitions: 8}",
                    "  group: " + name,
                    "  progress_interval_seconds: 30",
                    "  worker: {" + (o.inFlight() > 0 ? "max_in_flight: " + o.inFlight() + ", " : "") + "threads: "
                            + o.threads() + ", shutdown_grace_seconds: 10}",
                    ""));
            List<Integer> probes = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                int port = freePort();
                probes.add(port);
                workers.add(start(runDir.resolve("worker-" + i + ".log"), List.of(o.cloudg().toString(), "worker", "--config",
                        config.toString(), "--id", name + "-w" + i, "--health-port", Integer.toString(port))));
            }
            for (int port : probes) {
                awaitReady(port, Duration.ofSeconds(120));
            }
            long truth = sim.truth().assets().stream().filter(a -> a.provider().equals("aws")).count();
            // the first map warms the fleet (JIT, SDK clients, connections); the next ones are measured. All
            // write to one output directory, as a user's repeated maps do: each map's sizes order the next one's tasks
            Path out = runDir.resolve("out");
            map(o, config, out, runDir.resolve("warm-up.log"), n, truth);
            List<Double> runs = new ArrayList<>();
            Mapped measured = null;
            SimStats before = null;
            SimStats after = null;
            for (int i = 1; i <= o.repeat(); i++) {
                before = sim.stats();
                Thread.sleep(refillMillis(before));
                measured = map(o, config, out, runDir.resolve("map-" + i + ".log"), n, truth);
                after = sim.stats();
                runs.add(measured.runSeconds());
            }
            long calls = sum(after, BucketStats::calls) - sum(before, BucketStats::calls);
            long throttled = sum(after, BucketStats::throttled) - sum(before, BucketStats::throttled);
            long over = after.buckets().stream().filter(b -> b.maxAdmittedPerSecond() > b.rate() + b.burst()).count();
            return new Result(n, runs, measured.wallSeconds(), QuotaBound.between(before, after), measured.assets(), calls,
                    throttled, over);
        } finally {
            for (Process w : workers) {
                w.destroy();
            }
            for (Process w : workers) {
                if (!w.waitFor(30, TimeUnit.SECONDS)) {
                    w.destroyForcibly();
                }
            }
        }
    }

    /** A map's own duration (its summary), the coordinator process's, and its asset count. */
    record Mapped(double runSeconds, double wallSeconds, long assets) {
    }

    /** Runs the coordinator; fails unless it exits 0 with exactly the truth's number of assets. */
    static Mapped map(Options o, Path config, Path out, Path log, int n, long truth) throws Exception {
        long t0 = System.nanoTime();
        Files.createDirectories(out);
        Process map = start(log, List.of(o.cloudg().toString(), "map", "--distributed",
                "--config", config.toString(), "--out", out.toString(), "--no-progress"));
        if (!map.waitFor(30, TimeUnit.MINUTES) || map.exitValue() != 0) {
            throw new IllegalStateException("the map with " + n + " worker(s) failed (" + (map.isAlive() ? "timeout"
                    : "exit " + map.exitValue()) + "): see " + log);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        JsonNode summary = JSON.readTree(out.resolve("inventory-map.json").toFile()).get("summary");
        long assets = summary.get("assets").asLong();
        if (assets != truth) {
            throw new IllegalStateException("the map with " + n + " worker(s) has " + assets + " assets, the truth " + truth);
        }
        return new Mapped(summary.get("duration_seconds").asDouble(), wall, assets);
    }

    /** Long enough for every bucket to be full again (burst / rate), so both maps start alike. */
    static long refillMillis(SimStats stats) {
        double s = 0;
        for (BucketStats b : stats.buckets()) {
            s = Math.max(s, b.burst() / b.rate());
        }
        return Math.round(s * 1000) + 500;
    }

    static long sum(SimStats stats, java.util.function.ToLongFunction<BucketStats> f) {
        return stats.buckets().stream().mapToLong(f).sum();
    }

    private static List<String> java(Options o, String service, Object... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", o.devClasspath(), "io.cloudg.fleet.local.DevServices", service));
        for (Object a : args) {
            cmd.add(a.toString());
        }
        return cmd;
    }

    private static Process start(Path log, List<String> command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitPort(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                new Socket("127.0.0.1", port).close();
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("nothing listens on " + port + " after " + timeout);
    }

    private static void awaitReady(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the worker with probes on " + port + " was not ready after " + timeout);
    }
}
