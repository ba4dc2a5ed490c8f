package io.cloudg.bench.map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.core.AwsType;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * CPU per AWS API call of an embedded {@code cloudg map}, what bounds how large an organization one machine can
 * map (BENCHMARKS.md, "Client CPU per API call"): a generated organization (default 200
 * accounts x 4 regions, one or two resources of a few types each, 5-15 ms latency a call) served by a
 * cloud-sim in this JVM, mapped by {@code cloudg map} in a child JVM with the default configuration (every
 * collector, both sweeps, 16 collector jobs at once) under bash's {@code time}: the child's user + system CPU divided by the
 * calls the sim answered. Each contender is a cloudg build (a directory holding {@code cli/target}, started
 * through its {@code cloudg} launcher when it has one, as a user starts it, else with {@code java} directly), each
 * maps a fresh sim of the same estate, one after the other in one run, so their ratio is what to read on a
 * noisy machine. Every map is checked against the sim's truth (AWS assets, key by key).
 *
 * <p>Usage: {@code ClientCpuBench [accounts] [regions] [--latency-ms MIN-MAX] [--job-concurrency N] [--collectors a,b,...]
 * [--redis URL] [--thread-cpu] [name=DIR[@JVM-OPTIONS] ...]}
 * (default: {@code 200 4 --latency-ms 5-15 after=.}; up to 17 regions). JVM options after {@code @}
 * (space-separated) start that contender's child JVM, e.g. {@code c1=.@-XX:TieredStopAtLevel=1}. {@code --job-concurrency}
 * and {@code --collectors} go to every map's {@code cloudg.yaml} ({@code job_concurrency}, {@code aws.collectors}); the
 * child logs its collections ({@code -Xlog:gc}) and the table shows the largest heap in use after one. {@code --redis}
 * keeps every map's governor state in that Redis ({@code ratelimit.backend: redis}), as a fleet does: the embedded
 * map's client with a fleet's governor, without Kafka or a coordinator. {@code --thread-cpu} adds each map's CPU by
 * thread group.
 */
public final class ClientCpuBench {
    static final List<String> ALL_REGIONS = List.of("us-east-1", "eu-west-1", "us-west-2", "ap-southeast-1",
            "eu-central-1", "us-east-2", "us-west-1", "ca-central-1", "eu-west-2", "eu-west-3", "eu-north-1",
            "ap-south-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-southeast-2", "sa-east-1");

    private ClientCpuBench() {
    }

    record Outcome(String name, long assets, long truth, boolean equal, long calls, long throttled, double wall,
                   double user, double sys, int exit, long heapAfterGcMiB, Map<String, Double> threads) {
        double cpuPerCallMs() {
            return (user + sys) * 1000 / Math.max(1, calls);
        }
    }

    public static void main(String[] args) throws Exception {
        int accounts = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int regions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Map<String, Path> contenders = new java.util.LinkedHashMap<>();
        Map<String, String> jvmOptions = new java.util.HashMap<>();
        MapOptions options = MapOptions.DEFAULTS;
        int minMs = 5;
        int maxMs = 15;
        boolean threadCpu = false;
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals("--thread-cpu")) {
                threadCpu = true;
                continue;
            }
            if (args[i].equals("--job-concurrency")) {
                options = options.withJobConcurrency(Integer.parseInt(args[++i]));
                continue;
            }
            if (args[i].equals("--collectors")) {
                options = options.withCollectors(args[++i]);
                continue;
            }
            if (args[i].equals("--redis")) {
                options = options.withRedis(args[++i]);
                continue;
            }
            if (args[i].equals("--latency-ms")) {
                String[] mm = args[++i].split("-", 2);
                minMs = Integer.parseInt(mm[0]);
                maxMs = Integer.parseInt(mm[1]);
                continue;
            }
            String[] kv = args[i].split("=", 2);
            String[] pathAndOptions = kv[1].split("@", 2);
            contenders.put(kv[0], Path.of(pathAndOptions[0]).toAbsolutePath());
            if (pathAndOptions.length > 1) {
                jvmOptions.put(kv[0], pathAndOptions[1]);
            }
        }
        if (contenders.isEmpty()) {
            contenders.put("after", Path.of(".").toAbsolutePath());
        }
        EstateSpec estate = estate(accounts, ALL_REGIONS.subList(0, Math.min(regions, ALL_REGIONS.size())))
                .withLatency(new LatencySpec(Duration.ofMillis(minMs), Duration.ofMillis(maxMs - minMs)));
        List<Outcome> outcomes = new ArrayList<>();
        for (Map.Entry<String, Path> c : contenders.entrySet()) {
            Outcome o = run(c.getKey(), c.getValue(), jvmOptions.getOrDefault(c.getKey(), ""), options, estate, threadCpu);
            System.err.println(o);
            outcomes.add(o);
        }
        System.out.println("| build | accounts x regions | assets | equal to the truth | sim calls | throttled | wall (s) "
                + "| user CPU (s) | system CPU (s) | CPU per call (ms) | largest heap after a GC (MiB) | exit |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Outcome o : outcomes) {
            System.out.printf(Locale.ROOT, "| %s | %d x %d | %d | %s | %d | %d | %.1f | %.1f | %.1f | %.3f | %d | %d |%n", o.name(),
                    accounts, regions, o.assets(), o.equal() ? "yes" : "NO (truth " + o.truth() + ")", o.calls(),
                    o.throttled(), o.wall(), o.user(), o.sys(), o.cpuPerCallMs(), o.heapAfterGcMiB(), o.exit());
        }
        if (threadCpu) {
            Map<String, Map<String, Double>> columns = new java.util.LinkedHashMap<>();
            outcomes.forEach(o -> columns.put(o.name(), o.threads()));
            System.out.println();
            System.out.print(ThreadCpu.table(columns));
        }
        if (outcomes.size() > 1) {
            Outcome first = outcomes.get(0);
            for (Outcome o : outcomes.subList(1, outcomes.size())) {
                System.out.printf(Locale.ROOT, "CPU per call, %s / %s: %.2f%n", o.name(), first.name(),
                        o.cpuPerCallMs() / first.cpuPerCallMs());
            }
        }
        System.exit(0);
    }

    /** One or two resources of a few types per account x region (or per account for global types), 5-15 ms a call. */
    static EstateSpec estate(int accounts, List<String> regions) {
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        counts.put(AwsType.EC2_VPC, 1);
        counts.put(AwsType.EC2_SUBNET, 2);
        counts.put(AwsType.EC2_SECURITY_GROUP, 1);
        counts.put(AwsType.EC2_INSTANCE, 1);
        counts.put(AwsType.EC2_VOLUME, 1);
        counts.put(AwsType.IAM_ROLE, 1);
        counts.put(AwsType.S3_BUCKET, 1);
        counts.put(AwsType.LAMBDA_FUNCTION, 2);
        counts.put(AwsType.DYNAMODB_TABLE, 1);
        counts.put(AwsType.SQS_QUEUE, 1);
        return EstateSpec.generated(accounts, regions, counts)
                .withLatency(new LatencySpec(Duration.ofMillis(5), Duration.ofMillis(10)));
    }

    /**
     * Maps {@code estate} with the CLI built in {@code build}, in a child JVM started with {@code jvmOptions}
     * (space-separated, may be empty) before the launcher's own options.
     */
    static Outcome run(String name, Path build, String jvmOptions, MapOptions options, EstateSpec estate) throws Exception {
        return run(name, build, jvmOptions, options, estate, false);
    }

    /** As above; with {@code threadCpu}, the child JVM's CPU by thread group too ({@link ThreadCpu}). */
    static Outcome run(String name, Path build, String jvmOptions, MapOptions options, EstateSpec estate,
                       boolean threadCpu) throws Exception {
        Path work = Files.createTempDirectory("cloudg-cpu-" + name);
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
            Path config = writeConfig(sim, work, options);
            Path gcLog = work.resolve("gc.log");
            Path times = work.resolve("time.txt");
            String start = startCommand(build, jvmOptions, gcLog);
            String command = "TIMEFORMAT='%U %S'; { time " + start + " map --config '"
                    + config + "' --out '" + work + "' --no-progress > '" + work.resolve("map.log") + "' 2>&1 ; } 2> '"
                    + times + "'; exit 0";
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder("bash", "-c", command).inheritIO().start();
            ThreadCpu.Tracker threads = threadCpu ? new ThreadCpu.Tracker(() -> ThreadCpu.javaDescendant(p.toHandle()), true) : null;
            p.waitFor();
            double wall = (System.nanoTime() - t0) / 1e9;
            String[] ut = Files.readString(times).trim().split("\\s+");
            Map<String, Double> byThread = threads == null ? Map.of()
                    : threads.finish(Double.parseDouble(ut[0]) + Double.parseDouble(ut[1]));
            int exit = exitCode(work.resolve("map.log"));
            SimStats stats = sim.stats();
            Set<String> truth = truthKeys(sim);
            Set<String> mapped = mappedKeys(work.resolve("inventory-map.json"));
            reportDifference(mapped, truth);
            return new Outcome(name, mapped.size(), truth.size(), mapped.equals(truth), stats.totals().calls(),
                    stats.totals().throttled(), wall, Double.parseDouble(ut[0]), Double.parseDouble(ut[1]), exit,
                    largestHeapAfterGcMiB(gcLog), byThread);
        } finally {
            deleteTree(work);
        }
    }

    /**
     * The shell words that start {@code build}'s CLI (before its command): through its {@code cloudg} launcher when
     * it has one, as a user starts it (the launcher's JVM options, then {@code jvmOptions} in {@code JAVA_OPTS}, which
     * the launcher splits on spaces: the temporary directory's path has none), else with this JVM's {@code java};
     * the child logs its collections to {@code gcLog}.
     */
    static String startCommand(Path build, String jvmOptions, Path gcLog) {
        Path launcher = build.resolve("cloudg");
        if (Files.isExecutable(launcher)) {
            return "JAVA_OPTS=\"" + jvmOptions.replace("\"", "\\\"") + " -Xlog:gc:file=" + gcLog + "\" '" + launcher + "'";
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = build.resolve("cli/target/cloudg-cli.jar") + File.pathSeparator + build.resolve("cli/target/lib") + "/*";
        return "'" + java + "' " + jvmOptions + " '-Xlog:gc:file=" + gcLog + "' -cp '" + cp + "' io.cloudg.cli.Main";
    }

    /** The sim's AWS assets as keys ({@code account|region|type|id}), as {@link #mappedKeys} reads a map's. */
    static Set<String> truthKeys(CloudSim sim) {
        return sim.truth().assets().stream().filter(a -> a.provider().equals("aws"))
                .map(a -> a.account() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** On stderr, the first keys that differ between a map and the truth (nothing when they are equal). */
    static void reportDifference(Set<String> mapped, Set<String> truth) {
        if (!mapped.equals(truth)) {
            System.err.println("not mapped (of the truth), first 10: " + truth.stream().filter(k -> !mapped.contains(k)).limit(10).toList());
            System.err.println("mapped, not in the truth, first 10: " + mapped.stream().filter(k -> !truth.contains(k)).limit(10).toList());
        }
    }

    /**
     * What the map is told besides the defaults: collector jobs at once ({@code job_concurrency}, 0: the default) and
     * the collectors to run ({@code aws.collectors}, empty: all).
     */
    record MapOptions(int jobConcurrency, String collectors, String redis) {
        static final MapOptions DEFAULTS = new MapOptions(0, "", "");

        MapOptions withJobConcurrency(int n) {
            return new MapOptions(n, collectors, redis);
        }

        MapOptions withCollectors(String list) {
            return new MapOptions(jobConcurrency, list, redis);
        }

        /** The governor's state in the Redis at {@code url} ({@code ratelimit.backend: redis}), as a fleet keeps it. */
        MapOptions withRedis(String url) {
            return new MapOptions(jobConcurrency, collectors, url);
        }
    }

    /** {@code cloudg.yaml} for a map of {@code sim}'s AWS organization with the default configuration. */
    static Path writeConfig(CloudSim sim, Path work) throws java.io.IOException {
        return writeConfig(sim, work, MapOptions.DEFAULTS);
    }

    /** {@code cloudg.yaml} for a map of {@code sim}'s AWS organization: the defaults and {@code options}. */
    static Path writeConfig(CloudSim sim, Path work, MapOptions options) throws java.io.IOException {
        Path config = work.resolve("cloudg.yaml");
        List<String> lines = new ArrayList<>(List.of(
                "providers: [aws]",
                "aws:",
                "  endpoint_url: " + sim.awsEndpoint(),
                "  org: true",
                "  access_key_id: " + sim.managementCredentials().accessKeyId(),
                "  secret_access_key: " + sim.managementCredentials().secretAccessKey()));
        if (!options.collectors().isEmpty()) {
            lines.add("  collectors: [" + options.collectors() + "]");
        }
        if (options.jobConcurrency() > 0) {
            lines.add("job_concurrency: " + options.jobConcurrency());
        }
        lines.add(options.redis().isEmpty() ? "ratelimit: {state_file: none}"
                : "ratelimit: {state_file: none, backend: redis, redis: {url: \"" + options.redis() + "\"}}");
        lines.add("");
        Files.writeString(config, String.join("\n", lines));
        return config;
    }

    /** The largest heap in use after a collection, from a {@code -Xlog:gc} file ("...M->NM(...)"): 0 if none. */
    static long largestHeapAfterGcMiB(Path gcLog) throws java.io.IOException {
        if (!Files.exists(gcLog)) {
            return 0;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)M->(\\d+)M\\(").matcher(Files.readString(gcLog));
        long max = 0;
        while (m.find()) {
            max = Math.max(max, Long.parseLong(m.group(2)));
        }
        return max;
    }

    /** The map's exit is not seen through bash's time: read from the closing lines whether coverage was complete. */
    private static int exitCode(Path log) throws Exception {
        String text = Files.readString(log, StandardCharsets.UTF_8);
        return text.contains(" 0 PARTIAL, 0 FAILED") ? 0 : text.contains("Map: ") ? 3 : 2;
    }

    /** The AWS assets of an inventory-map.json as keys, read by streaming (the map can be large). */
    static Set<String> mappedKeys(Path map) throws Exception {
        Set<String> keys = new TreeSet<>();
        if (!Files.exists(map)) {
            return keys;
        }
        ObjectMapper json = new ObjectMapper();
        try (JsonParser p = json.getFactory().createParser(map.toFile())) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && "assets".equals(p.currentName()) && p.getParsingContext().getParent().inRoot()) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        JsonNode a = json.readTree(p);
                        if ("aws".equals(a.path("provider").asText())) {
                            keys.add(a.path("account_id").asText() + "|" + a.path("region").asText() + "|"
                                    + a.path("type").asText() + "|" + a.path("id").asText());
                        }
                    }
                }
            }
        }
        return keys;
    }

    public static void deleteTree(Path dir) throws Exception {
        try (var walk = Files.walk(dir)) {
            for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
