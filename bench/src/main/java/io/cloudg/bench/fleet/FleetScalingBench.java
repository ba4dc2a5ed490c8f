package io.cloudg.bench.fleet;

import io.cloudg.bench.map.QuotaBound;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.bench.map.ThreadCpu;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.core.AwsType;
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
 *     [--latency-ms 60] [--jitter-ms 30] [--threads 8 (0: fleet.worker.threads unset)] [--in-flight N (default: unset)] [--warm-up 1] [--repeat 3] [--allow-partial false]
 *     [--collectors a,b,... (aws.collectors; default: all)] [--thread-cpu true (each measured map's CPU by thread group)]
 * </pre>
 */
public final class FleetScalingBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The options, with the defaults BENCHMARKS.md was measured with. */
    record Options(Path cloudg, String devClasspath, List<Integer> workers, int accounts, List<String> regions,
                   int perType, Map<AwsType, Integer> counts, int latencyMs, int jitterMs, int threads, int inFlight,
                   int warmUp, int repeat, boolean allowPartial, Path dir, String collectors, boolean threadCpu) {
        static Options parse(String[] args) throws IOException {
            Path cloudg = Path.of("cloudg");
            Path devcp = Path.of("devkit/target/fleet-dev.classpath");
            List<Integer> workers = List.of(1, 2, 4);
            int accounts = 24;
            List<String> regions = List.of("us-east-1", "eu-west-1");
            int perType = 2;
            int latency = 60;
            int jitter = -1; // half the latency
            int threads = 8;
            int inFlight = 0; // unset: a worker takes tasks while its governor has room and no job waits for a place
            int repeat = 3;
            int warmUp = 1;
            boolean allowPartial = false;
            Map<AwsType, Integer> counts = new LinkedHashMap<>();
            Path dir = Path.of("target", "fleet-bench");
            String collectors = ""; // all
            boolean threadCpu = false;
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
                    case "--jitter-ms" -> jitter = Integer.parseInt(v);
                    case "--threads" -> threads = Integer.parseInt(v);
                    case "--in-flight" -> inFlight = Integer.parseInt(v);
                    case "--repeat" -> repeat = Integer.parseInt(v);
                    case "--warm-up" -> warmUp = Integer.parseInt(v);
                    case "--allow-partial" -> allowPartial = Boolean.parseBoolean(v);
                    case "--counts" -> {
                        for (String kv : v.split(",")) {
                            String[] p = kv.split("=");
                            counts.put(AwsType.valueOf(p[0].trim()), Integer.parseInt(p[1].trim()));
                        }
                    }
                    case "--dir" -> dir = Path.of(v);
                    case "--collectors" -> collectors = v;
                    case "--thread-cpu" -> threadCpu = Boolean.parseBoolean(v);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            String classes = devcp.toAbsolutePath().getParent().resolve("classes").toString();
            return new Options(cloudg.toAbsolutePath(), classes + ":" + Files.readString(devcp).trim(), workers, accounts,
                    regions, perType, counts, latency, jitter < 0 ? latency / 2 : jitter, threads, inFlight, warmUp,
                    repeat, allowPartial, dir.toAbsolutePath(), collectors, threadCpu);
        }

        EstateSpec estate() {
            Map<AwsType, Integer> c = new LinkedHashMap<>(AwsSpec.uniformCounts(perType));
            c.putAll(counts);
            return EstateSpec.generated(accounts, regions, c)
                    .withLatency(new LatencySpec(Duration.ofMillis(latencyMs), Duration.ofMillis(jitterMs)));
        }
    }

    /** One fleet size's outcome: the measured maps' times (their median counts), and the last map's numbers. */
    record Result(int workers, List<Double> runs, double wallSeconds, QuotaBound bound, long assets, long calls,
                  long throttled, long maxOverQuota, List<Double> cpuPerCallMs, List<Double> cpuBounds, RedisKeys redis) {
        double runSeconds() {
            return median(runs);
        }

        /** Client CPU (every worker JVM and the coordinator JVM, user + system) per call the sim answered, median over the measured maps. */
        double cpuMs() {
            return median(cpuPerCallMs);
        }

        /**
         * The CPU bound, median over the measured maps: the CPU seconds of the workers, the coordinator, the sim,
         * Kafka and Redis over the machine's cores.
         */
        double cpuBound() {
            return median(cpuBounds);
        }

        static double median(List<Double> values) {
            List<Double> sorted = values.stream().sorted().toList();
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
                            + "per worker: %s, %s; %d measured map(s) per fleet after %d warm-up map(s)%n",
                    o.accounts(), o.regions(), o.perType(), o.counts().isEmpty() ? "" : " except " + o.counts(),
                    o.latencyMs(), o.jitterMs(), o.inFlight() > 0 ? o.inFlight() + " tasks in flight"
                            : "tasks while the governor has room", o.threads() > 0 ? o.threads() + " jobs at once"
                            : "the default jobs at once", o.repeat(), o.warmUp());
            List<Result> results = new ArrayList<>();
            for (int n : o.workers()) {
                Result r = runOnce(o, n, kafkaPort, redisPort, services);
                results.add(r);
                System.out.printf(Locale.ROOT, "  %d worker(s): %s s (median %.1f), %d assets, %d calls, %d throttled, "
                                + "client CPU per call %s ms%n", n, r.runs(), r.runSeconds(), r.assets(), r.calls(), r.throttled(),
                        r.cpuPerCallMs().stream().map(c -> String.format(Locale.ROOT, "%.3f", c)).toList());
            }
            System.out.println();
            System.out.println(table(results));
            System.out.println("| workers | sim buckets used (account x region x action) | Redis keys of this fleet's prefix "
                    + "| Redis used_memory growth (MiB) | a sampled key's TTL (h) |\n|---|---|---|---|---|");
            for (Result r : results) {
                System.out.printf(Locale.ROOT, "| %d | %d | %d | %.1f | %.1f |%n", r.workers(), r.redis().simBuckets(),
                        r.redis().keys(), r.redis().memoryBytes() / 1048576.0, r.redis().sampleTtlMillis() / 3.6e6);
            }
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
        sb.append("| workers | map time (s), median | range (s) | quota lower bound (s) | CPU bound (s) | speed-up "
                + "| scaling efficiency | map time / bound | calls per map | throttled | buckets over quota "
                + "| client CPU per call (ms) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            double speedup = one.runSeconds() / r.runSeconds();
            double bound = Math.max(r.bound().seconds(), r.cpuBound());
            String overBound = bound > 0 ? String.format(Locale.ROOT, "%.2fx", r.runSeconds() / bound) : "-";
            sb.append(String.format(Locale.ROOT, "| %d | %.1f | %s | %.1f | %.1f | %.2fx | %.0f%% | %s | %d | %d | %d | %.3f |%n",
                    r.workers(), r.runSeconds(), r.range(), r.bound().seconds(), r.cpuBound(), speedup,
                    100 * speedup * one.workers() / r.workers(), overBound, r.calls(), r.throttled(), r.maxOverQuota(),
                    r.cpuMs()));
        }
        Result last = results.get(results.size() - 1);
        sb.append(String.format(Locale.ROOT, "%nBusiest bucket of the measured map: %s, %d calls admitted.%n",
                last.bound().bucket(), last.bound().admitted()));
        return sb.toString();
    }

    static Result runOnce(Options o, int n, int kafkaPort, int redisPort, List<Process> services) throws Exception {
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
                    o.collectors().isEmpty() ? "" : "  collectors: [" + o.collectors() + "]",
                    "ratelimit:",
                    "  backend: redis",
                    "  redis: {url: \"redis://127.0.0.1:" + redisPort + "\", key_prefix: " + name + ", fleet_size_hint: " + n + "}",
                    "fleet:",
                    "  kafka: {bootstrap_servers: \"127.0.0.1:" + kafkaPort + "\"}",
                    "  topics: {prefix: " + name + ", task_partitions: 16, result_partitions: 8}",
                    "  group: " + name,
                    "  progress_interval_seconds: 30",
                    "  worker: {" + (o.inFlight() > 0 ? "max_in_flight: " + o.inFlight() + ", " : "")
                            + (o.threads() > 0 ? "threads: " + o.threads() + ", " : "") + "shutdown_grace_seconds: 10}",
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
            long memoryBefore = redisMemory(redisPort);
            // the first map warms the fleet (JIT, SDK clients, connections); the next ones are measured. All
            // write to one output directory, as a user's repeated maps do: each map's sizes order the next one's tasks
            Path out = runDir.resolve("out");
            for (int i = 0; i < o.warmUp(); i++) {
                map(o, config, out, runDir.resolve("warm-up-" + i + ".log"), n, truth);
            }
            List<Double> runs = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            List<Double> cpuBounds = new ArrayList<>();
            Mapped measured = null;
            SimStats before = null;
            SimStats after = null;
            for (int i = 1; i <= o.repeat(); i++) {
                before = sim.stats();
                Thread.sleep(refillMillis(before));
                long callsBefore = sim.stats().totals().calls();
                double workersBefore = cpuSeconds(workers);
                double othersBefore = cpuSeconds(services) + thisProcessCpuSeconds();
                List<ThreadCpu.Tracker> trackers = new ArrayList<>();
                if (o.threadCpu()) {
                    for (Process w : workers) {
                        trackers.add(new ThreadCpu.Tracker(() -> java.util.OptionalLong.of(w.pid()), false));
                    }
                }
                measured = map(o, config, out, runDir.resolve("map-" + i + ".log"), n, truth);
                double workersCpu = cpuSeconds(workers) - workersBefore;
                // the sim (in this JVM), Kafka and Redis: with the client's, the CPU the map needed of the machine
                double othersCpu = cpuSeconds(services) + thisProcessCpuSeconds() - othersBefore;
                cpuBounds.add((workersCpu + measured.cpuSeconds() + othersCpu) / Runtime.getRuntime().availableProcessors());
                if (o.threadCpu()) {
                    Map<String, Map<String, Double>> columns = new LinkedHashMap<>();
                    Map<String, Double> all = new java.util.HashMap<>();
                    for (int w = 0; w < trackers.size(); w++) {
                        Map<String, Double> t = trackers.get(w).finish(-1);
                        t.forEach((k, v) -> all.merge(k, v, Double::sum));
                        if (trackers.size() > 1) {
                            columns.put("worker " + (w + 1), t);
                        }
                    }
                    Map<String, Map<String, Double>> table = new LinkedHashMap<>();
                    table.put(trackers.size() > 1 ? "workers" : "worker", ThreadCpu.sorted(all));
                    table.putAll(columns);
                    table.put("coordinator", measured.threads());
                    System.out.printf(Locale.ROOT, "%nCPU by thread, %d worker(s), map %d (%d calls):%n%s%n", n, i,
                            Math.max(1, sim.stats().totals().calls() - callsBefore), ThreadCpu.table(table));
                }
                after = sim.stats();
                runs.add(measured.runSeconds());
                long mapCalls = Math.max(1, after.totals().calls() - callsBefore);
                cpu.add((workersCpu + measured.cpuSeconds()) * 1000 / mapCalls);
                System.err.printf(Locale.ROOT, "  map %d: %.1f s, %d calls; CPU: workers %.1f s, coordinator %.1f s, sim + Kafka + "
                                + "Redis %.1f s%n", i, measured.runSeconds(), mapCalls, workersCpu, measured.cpuSeconds(), othersCpu);
            }
            long calls = sum(after, BucketStats::calls) - sum(before, BucketStats::calls);
            long throttled = sum(after, BucketStats::throttled) - sum(before, BucketStats::throttled);
            long over = after.buckets().stream().filter(b -> b.maxAdmittedPerSecond() > b.rate() + b.burst()).count();
            List<String> keys = redisScan(redisPort, "{" + name + ":*");
            RedisKeys redis = new RedisKeys(after.buckets().size(), keys.size(), redisMemory(redisPort) - memoryBefore,
                    keys.isEmpty() ? -1 : Long.parseLong(redis(redisPort, "PTTL", keys.get(0)).get(0)));
            return new Result(n, runs, measured.wallSeconds(), QuotaBound.between(before, after), measured.assets(), calls,
                    throttled, over, cpu, cpuBounds, redis);
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

    /** The governor's state in Redis after a fleet's maps, against the quota buckets the sim saw used. */
    record RedisKeys(int simBuckets, int keys, long memoryBytes, long sampleTtlMillis) {
    }

    static long redisMemory(int port) throws IOException {
        for (String line : redis(port, "INFO", "memory").get(0).split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("no used_memory in INFO memory");
    }

    /** Every key matching {@code pattern} (SCAN, never KEYS). */
    static List<String> redisScan(int port, String pattern) throws IOException {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<String> page = redis(port, "SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = page.get(0);
            keys.addAll(page.subList(1, page.size()));
        } while (!cursor.equals("0"));
        return keys;
    }

    /** One command over RESP2; the answer flattened (a bulk string, an integer, or an array's elements). */
    static List<String> redis(int port, String... command) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            StringBuilder req = new StringBuilder("*" + command.length + "\r\n");
            for (String c : command) {
                req.append('$').append(c.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).append("\r\n").append(c)
                        .append("\r\n");
            }
            s.getOutputStream().write(req.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(s.getInputStream()));
            List<String> out = new ArrayList<>();
            readResp(in, out);
            return out;
        }
    }

    private static void readResp(java.io.DataInputStream in, List<String> out) throws IOException {
        String line = readLine(in);
        switch (line.charAt(0)) {
            case '+', ':' -> out.add(line.substring(1));
            case '-' -> throw new IOException("Redis: " + line.substring(1));
            case '$' -> {
                int n = Integer.parseInt(line.substring(1));
                if (n < 0) {
                    out.add(null);
                    return;
                }
                byte[] b = new byte[n + 2];
                in.readFully(b);
                out.add(new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8));
            }
            case '*' -> {
                int n = Integer.parseInt(line.substring(1));
                for (int i = 0; i < n; i++) {
                    readResp(in, out);
                }
            }
            default -> throw new IOException("unexpected RESP line " + line);
        }
    }

    private static String readLine(java.io.DataInputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = in.read()) != -1; ) {
            if (c == '\r') {
                in.read();
                return sb.toString();
            }
            sb.append((char) c);
        }
        throw new IOException("Redis closed the connection");
    }

    /** A map's own duration (its summary), the coordinator process's wall and CPU (user + system), and its asset count. */
    record Mapped(double runSeconds, double wallSeconds, double cpuSeconds, long assets, Map<String, Double> threads) {
    }


    /** User + system CPU this JVM (the sim's) used so far. */
    static double thisProcessCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    /** User + system CPU the (live) worker JVMs used so far ({@code cloudg} execs its JVM, so the pid is the JVM's). */
    static double cpuSeconds(List<Process> processes) {
        double s = 0;
        for (Process p : processes) {
            s += p.toHandle().info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
                    "no CPU time for process " + p.pid())).toNanos() / 1e9;
        }
        return s;
    }

    /** Runs the coordinator; fails unless it exits 0 with exactly the truth's number of assets. */
    static Mapped map(Options o, Path config, Path out, Path log, int n, long truth) throws Exception {
        long t0 = System.nanoTime();
        Files.createDirectories(out);
        Path times = log.resolveSibling(log.getFileName() + ".cpu");
        // bash's time gives the coordinator JVM's user + system CPU; its exit status is the map's
        Process map = start(log, List.of("bash", "-c", "TIMEFORMAT='%U %S'; { time \"$0\" \"$@\" 2>&1 ; } 2> '" + times + "'",
                o.cloudg().toString(), "map", "--distributed", "--config", config.toString(), "--out", out.toString(),
                "--no-progress"));
        ThreadCpu.Tracker threads = o.threadCpu() ? new ThreadCpu.Tracker(() -> ThreadCpu.javaDescendant(map.toHandle()), true) : null;
        // exit 3 (coverage not complete somewhere) is accepted with --allow-partial true; the assets must still equal the truth
        if (!map.waitFor(30, TimeUnit.MINUTES) || (map.exitValue() != 0 && !(o.allowPartial() && map.exitValue() == 3))) {
            throw new IllegalStateException("the map with " + n + " worker(s) failed (" + (map.isAlive() ? "timeout"
                    : "exit " + map.exitValue()) + "): see " + log);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        JsonNode summary = JSON.readTree(out.resolve("inventory-map.json").toFile()).get("summary");
        long assets = summary.get("assets").asLong();
        if (assets != truth) {
            throw new IllegalStateException("the map with " + n + " worker(s) has " + assets + " assets, the truth " + truth);
        }
        String[] ut = Files.readString(times).trim().split("\\s+");
        double cpu = Double.parseDouble(ut[0]) + Double.parseDouble(ut[1]);
        return new Mapped(summary.get("duration_seconds").asDouble(), wall, cpu, assets,
                threads == null ? Map.of() : threads.finish(cpu));
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

    static Process start(Path log, List<String> command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void awaitPort(int port, Duration timeout) throws InterruptedException {
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
