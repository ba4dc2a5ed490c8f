package io.cloudg.bench.fleet;

import io.cloudg.bench.map.QuotaBound;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.bench.map.SdkFloorBench;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.quota.BucketStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Issue 38's shared-quota benchmark: several clients map the same accounts of one cloud-sim estate at the same
 * time, started together, and share its quotas; the guide's problem ("forty EC2 clients in one account") as it
 * looks between processes. Each run has a fresh simulator (same seed, so the same estate and full buckets), in
 * this JVM, {@code realism: strict} (no retry hints on AWS throttles), quotas as the built-in table, no synthetic
 * neighbour. The modes, each with N = every {@code --clients} value:
 * <ul>
 *   <li>{@code sdk} (a): N JVMs with the AWS SDK alone ({@link SdkFloorBench.Child} with {@code --retry adaptive}:
 *       the SDK's adaptive mode with cloudg's {@code aws.max_retries} + 1 attempts, {@code --items}: every page and
 *       each item's per-item calls, 8 at a time, as the collectors make them, {@code --client-per-account}: the
 *       SDK's retry state per account, as cloudg keeps it), the same collectors;</li>
 *   <li>{@code memory} (b): N {@code cloudg map} processes, each governing alone (the memory backend);</li>
 *   <li>{@code redis} (c): N {@code cloudg map --redis URL} processes sharing one real {@code redis-server} (flushed
 *       before the run);</li>
 *   <li>{@code redis-hinted} (c', not in the default set): (c) with {@code ratelimit.redis.fleet_size_hint: N}, so that a
 *       process that counts Redis as lost paces at 1/N of every limit until it is back, not at the whole quota;</li>
 *   <li>{@code alone} (d): one {@code cloudg map} (and one SDK JVM, for the size of its work), the reference.</li>
 * </ul>
 * cloudg's JVMs start as the launcher starts them (with the build's class-data archive when it was built with one);
 * the SDK's JVMs with the launcher's JVM options for {@code map} and, after the reference run wrote it, a class-data
 * archive of their own.
 * Every {@code cloudg map} runs through the launcher as built, with one configuration file: the estate's endpoint
 * and management credentials, {@code org: true}, the regions, the collectors, no sweeps, and {@code
 * ratelimit.state_file: none} so that no run inherits the rates another one learned.
 *
 * <p>Per run: the wall time from the first launch to the last exit, when the sim answered its first call, the
 * sim's calls and throttled answers, calls given up (cloudg: {@code throttling.totals.gave_up} of each map;
 * the SDK: calls whose last answer, after the SDK's retries, was a throttle), calls an open breaker rejected,
 * coverage entries PARTIAL and FAILED, buckets over quota (admitted more than rate x 1 s + burst in some second),
 * the quota lower bound of the run's combined work ({@link QuotaBound}: the busiest bucket's admitted calls beyond
 * its burst over its rate), and how long that bucket was empty (the sim's {@code emptySeconds}).
 *
 * <pre>
 * java -cp "bench/target/benchmarks.jar:bench/target/lib/*" io.cloudg.bench.fleet.SharedQuotaBench
 *     [--clients 4,16] [--modes alone,sdk,memory,redis] [--accounts 3] [--regions us-east-1,eu-west-1] [--amis 200]
 *     [--latency-ms 20] [--jitter-ms 20] [--collectors amis,instances,vpc,subnets,security_groups]
 *     [--sdk-retry adaptive] [--sdk-threads 16] [--redis-server redis-server] [--cloudg ./cloudg]
 *     [--dir target/shared-quota-bench] [--seed 7] [--rounds 1]
 * </pre>
 * With {@code --rounds R}, every N's modes run R times, in the reverse order every other round.
 */
public final class SharedQuotaBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SharedQuotaBench() {
    }

    /** A way of mapping the estate, with its letter in issue 38. */
    enum Mode {
        ALONE("d", "one cloudg map alone"), SDK("a", "AWS SDK alone (adaptive)"), MEMORY("b", "cloudg, memory backend"),
        REDIS("c", "cloudg, one Redis"),
        /** (c) with {@code ratelimit.redis.fleet_size_hint: N}: a process that loses Redis paces at 1/N, not at the whole quota. */
        REDIS_HINTED("c'", "cloudg, one Redis, fleet_size_hint N");

        final String letter;
        final String label;

        Mode(String letter, String label) {
            this.letter = letter;
            this.label = label;
        }

        static Mode of(String s) {
            for (Mode m : values()) {
                if (m.name().equalsIgnoreCase(s.replace('-', '_'))) {
                    return m;
                }
            }
            throw new IllegalArgumentException("--modes must name alone, sdk, memory, redis or redis-hinted, but had \"" + s + "\"");
        }
    }

    record Options(Path cloudg, List<Integer> clients, List<Mode> modes, int accounts, List<String> regions, int amis,
                   int latencyMs, int jitterMs, List<String> collectors, String sdkRetry, int sdkThreads,
                   String redisServer, Path dir, long seed, int rounds) {
        static Options parse(String[] args) {
            Path cloudg = Path.of("cloudg");
            List<Integer> clients = List.of(4, 16);
            List<Mode> modes = List.of(Mode.ALONE, Mode.SDK, Mode.MEMORY, Mode.REDIS);
            int accounts = 3;
            List<String> regions = List.of("us-east-1", "eu-west-1");
            int amis = 200;
            int latency = 20;
            int jitter = 20;
            List<String> collectors = List.of("amis", "instances", "vpc", "subnets", "security_groups");
            String sdkRetry = "adaptive";
            int sdkThreads = 16;
            String redisServer = "redis-server";
            Path dir = Path.of("target", "shared-quota-bench");
            long seed = 7;
            int rounds = 1;
            for (int i = 0; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String v = args[i + 1];
                switch (args[i]) {
                    case "--cloudg" -> cloudg = Path.of(v);
                    case "--clients" -> clients = Arrays.stream(v.split(",")).map(x -> positive(x, "--clients")).toList();
                    case "--modes" -> modes = Arrays.stream(v.split(",")).map(String::trim).map(Mode::of).toList();
                    case "--accounts" -> accounts = positive(v, "--accounts");
                    case "--regions" -> regions = Arrays.stream(v.split(",")).map(String::trim).toList();
                    case "--amis" -> amis = positive(v, "--amis");
                    case "--latency-ms" -> latency = nonNegative(v, "--latency-ms");
                    case "--jitter-ms" -> jitter = nonNegative(v, "--jitter-ms");
                    case "--collectors" -> collectors = Arrays.stream(v.split(",")).map(String::trim).toList();
                    case "--sdk-retry" -> {
                        SdkFloorBench.Child.retryStrategy(v); // refused here, naming the value
                        sdkRetry = v;
                    }
                    case "--sdk-threads" -> sdkThreads = positive(v, "--sdk-threads");
                    case "--redis-server" -> redisServer = v;
                    case "--dir" -> dir = Path.of(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--rounds" -> rounds = positive(v, "--rounds");
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(cloudg.toAbsolutePath(), clients, modes, accounts, regions, amis, latency, jitter, collectors,
                    sdkRetry, sdkThreads, redisServer, dir.toAbsolutePath(), seed, rounds);
        }

        /** The estate file of every run (also written to the run directory: {@code cloudg sim --estate} serves it). */
        String estateYaml() {
            return String.join("\n",
                    "seed: " + seed,
                    "realism: strict",
                    "aws:",
                    "  accounts: " + accounts,
                    "  regions: [" + String.join(", ", regions) + "]",
                    "  resources: {AWS::EC2::Image: " + amis + ", AWS::EC2::VPC: 1, AWS::EC2::Subnet: 2, "
                            + "AWS::EC2::SecurityGroup: 2, AWS::EC2::Instance: 2}",
                    "latency: {base: " + latencyMs + "ms, jitter: " + jitterMs + "ms}",
                    "");
        }
    }

    static int positive(String v, String name) {
        int n = nonNegative(v, name);
        if (n == 0) {
            throw new IllegalArgumentException(name + " must be a positive integer, but was \"" + v + "\"");
        }
        return n;
    }

    static int nonNegative(String v, String name) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(name + " must be a non-negative integer, but was \"" + v + "\"");
    }

    /** One process of a run: started when, its log, its output (a map's directory, or the SDK child's figures). */
    record Client(Process process, Path log, Path out, CompletableFuture<Long> exitedNanos) {
    }

    /** One run's figures. */
    record Outcome(Mode mode, int n, int round, double wallSeconds, double firstCallSeconds, double quotaStartSeconds,
                   double quotaEndSeconds, double busySeconds, double fastestSeconds, long calls,
                   long throttled, long gaveUp, long rejected, long partial, long failed, int badExits, long overQuota,
                   QuotaBound bound, BucketStats busiest, String load) {
        double overBound() {
            return bound.seconds() > 0 ? wallSeconds / bound.seconds() : Double.NaN;
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        Files.createDirectories(o.dir());
        EstateSpec estate = EstateSpec.fromYaml(o.estateYaml());
        Files.writeString(o.dir().resolve("estate.yaml"), o.estateYaml());
        Files.deleteIfExists(o.dir().resolve("sdk-child.jsa")); // made again by this build's reference run
        Process redis = null;
        int redisPort = -1;
        List<Outcome> outcomes = new ArrayList<>();
        try {
            if (o.modes().contains(Mode.REDIS) || o.modes().contains(Mode.REDIS_HINTED)) {
                redisPort = FleetScalingBench.freePort();
                redis = FleetScalingBench.start(o.dir().resolve("redis.log"), List.of(o.redisServer(), "--port",
                        Integer.toString(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"));
                FleetScalingBench.awaitPort(redisPort, java.time.Duration.ofSeconds(30));
            }
            System.out.printf(Locale.ROOT, "estate (%s): %d accounts x %s, %d AMIs per account x region, %d ms + up to %d ms"
                            + " a call, strict; collectors %s; the SDK: --retry %s, %d threads a JVM%n", o.dir().resolve("estate.yaml"),
                    o.accounts(), o.regions(), o.amis(), o.latencyMs(), o.jitterMs(), o.collectors(), o.sdkRetry(), o.sdkThreads());
            if (o.modes().contains(Mode.ALONE)) {
                outcomes.add(run(o, estate, Mode.ALONE, 1, 1, redisPort));
                outcomes.add(run(o, estate, Mode.SDK, 1, 1, redisPort));
            }
            for (int round = 1; round <= o.rounds(); round++) {
                for (int n : o.clients()) {
                    List<Mode> order = new ArrayList<>(o.modes());
                    if (round % 2 == 0) { // the machine's other load falls on every mode alike
                        java.util.Collections.reverse(order);
                    }
                    for (Mode m : order) {
                        if (m != Mode.ALONE) {
                            outcomes.add(run(o, estate, m, n, round, redisPort));
                        }
                    }
                }
            }
        } finally {
            if (redis != null) {
                redis.destroy();
                redis.waitFor(30, TimeUnit.SECONDS);
            }
        }
        System.out.println();
        System.out.println(table(outcomes));
        System.out.println(targets(outcomes));
    }

    static String table(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        sb.append("| round | mode | N | wall, last to finish (s) | first to finish (s) | first call answered (s) | sim calls | throttled answers"
                + " | calls given up | rejected (breaker) | coverage PARTIAL / FAILED | buckets over quota | quota bound (s)"
                + " | wall / bound | busiest bucket: first to last admission (s) | its span / bound"
                + " | busiest bucket empty (s; longest stretch, s) | exits not 0 | load average (before -> after) |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Outcome r : outcomes) {
            boolean sdk = r.mode() == Mode.SDK;
            sb.append(String.format(Locale.ROOT, "| %d | (%s) %s | %d | %.1f | %.1f | %.1f | %d | %d | %d | %s | %s | %d | %.1f | %s | %.1f | %s | %.1f (%.3f) | %d | %s |%n",
                    r.round(), r.mode() == Mode.SDK && r.n() == 1 ? "a" : r.mode().letter, r.mode().label, r.n(), r.wallSeconds(),
                    r.fastestSeconds(), r.firstCallSeconds(), r.calls(), r.throttled(), r.gaveUp(), sdk ? "-" : Long.toString(r.rejected()),
                    sdk ? "-" : r.partial() + " / " + r.failed(), r.overQuota(), r.bound().seconds(),
                    Double.isNaN(r.overBound()) ? "-" : String.format(Locale.ROOT, "%.2fx", r.overBound()), r.busySeconds(),
                    r.bound().seconds() > 0 ? String.format(Locale.ROOT, "%.2fx", r.busySeconds() / r.bound().seconds()) : "-",
                    r.busiest() == null ? 0 : r.busiest().emptySeconds(), r.busiest() == null ? 0 : r.busiest().longestEmptySeconds(),
                    r.badExits(), r.load()));
        }
        sb.append("\nWhere the wall time went (seconds from the first launch; the bounding buckets: those that admitted more"
                + " than their burst):\n\n| round | mode | N | launch to first call answered | to the first admission in a bounding"
                + " bucket | bounding buckets, first to last admission | last admission to last exit | wall |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (Outcome r : outcomes) {
            sb.append(String.format(Locale.ROOT, "| %d | (%s) | %d | %.1f | %.1f | %.1f | %.1f | %.1f |%n", r.round(),
                    r.mode() == Mode.SDK && r.n() == 1 ? "a" : r.mode().letter, r.n(), r.firstCallSeconds(),
                    r.quotaStartSeconds() - r.firstCallSeconds(), r.quotaEndSeconds() - r.quotaStartSeconds(),
                    r.wallSeconds() - r.quotaEndSeconds(), r.wallSeconds()));
        }
        Outcome last = outcomes.get(outcomes.size() - 1);
        sb.append(String.format(Locale.ROOT, "%nBusiest bucket of the last run: %s, %d calls admitted.%n", last.bound().bucket(),
                last.bound().admitted()));
        return sb.toString();
    }

    /** Issue 38's targets for (c), against (a) of the same N. */
    static String targets(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder("| round | mode | N | (c) throttled <= (a)/5 | (c) 0 calls given up | (c) wall <= (a) wall"
                + " | (c) wall <= 1.25x bound |\n|---|---|---|---|---|---|---|\n");
        for (Outcome c : outcomes) {
            if (c.mode() != Mode.REDIS && c.mode() != Mode.REDIS_HINTED) {
                continue;
            }
            Outcome a = outcomes.stream().filter(x -> x.mode() == Mode.SDK && x.n() == c.n() && x.round() == c.round())
                    .findFirst().orElse(null);
            sb.append(String.format(Locale.ROOT, "| %d | (%s) | %d | %s | %s | %s | %s |%n", c.round(), c.mode().letter, c.n(),
                    a == null ? "-" : verdict(c.throttled() * 5 <= a.throttled(), "%d vs %d / 5 = %.1f", c.throttled(), a.throttled(),
                            a.throttled() / 5.0),
                    verdict(c.gaveUp() == 0, "%d", c.gaveUp()),
                    a == null ? "-" : verdict(c.wallSeconds() <= a.wallSeconds(), "%.1f vs %.1f s (%.2fx)", c.wallSeconds(),
                            a.wallSeconds(), c.wallSeconds() / a.wallSeconds()),
                    verdict(c.overBound() <= 1.25, "%.1f vs %.1f s (%.2fx; the busiest bucket's first to last admission %.1f s, %.2fx)",
                            c.wallSeconds(), c.bound().seconds(), c.overBound(), c.busySeconds(), c.busySeconds() / c.bound().seconds())));
        }
        return sb.toString();
    }

    private static String verdict(boolean met, String format, Object... args) {
        return (met ? "met: " : "**missed**: ") + String.format(Locale.ROOT, format, args);
    }

    static Outcome run(Options o, EstateSpec estate, Mode mode, int n, int round, int redisPort) throws Exception {
        Path runDir = o.dir().resolve(mode.name().toLowerCase(Locale.ROOT) + "-" + n + "-round" + round);
        if (Files.exists(runDir)) {
            io.cloudg.bench.map.ClientCpuBench.deleteTree(runDir);
        }
        Files.createDirectories(runDir);
        if (mode == Mode.REDIS || mode == Mode.REDIS_HINTED) {
            FleetScalingBench.redis(redisPort, "FLUSHALL"); // no state of an earlier run
        }
        String load = loadAverage();
        System.err.printf(Locale.ROOT, "(%s) %s, N = %d, round %d: starting (load average %s)%n", mode.letter, mode.label, n,
                round, load);
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).seed(o.seed()).estate(estate).build())) {
            SimStats before = sim.stats();
            List<List<String>> commands = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                commands.add(mode == Mode.SDK ? sdkCommand(o, sim, runDir.resolve("sdk-" + i + ".txt"),
                        n == 1 && !Files.exists(o.dir().resolve("sdk-child.jsa")))
                        : mapCommand(o, sim, runDir, i, mode == Mode.MEMORY || mode == Mode.ALONE ? null
                                : "redis://127.0.0.1:" + redisPort, mode == Mode.REDIS_HINTED ? n : 0));
            }
            long t0 = System.nanoTime();
            List<Client> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Path log = runDir.resolve((mode == Mode.SDK ? "sdk-" : "map-") + i + ".log");
                Process p = FleetScalingBench.start(log, commands.get(i));
                clients.add(new Client(p, log, mode == Mode.SDK ? runDir.resolve("sdk-" + i + ".txt") : runDir.resolve("out-" + i),
                        p.onExit().thenApply(x -> System.nanoTime())));
            }
            Timeline timeline = new Timeline(sim, t0);
            Thread sampler = new Thread(timeline, "timeline");
            sampler.setDaemon(true);
            sampler.start();
            long last = t0;
            long first = Long.MAX_VALUE;
            int badExits = 0;
            for (Client c : clients) {
                if (!c.process().waitFor(60, TimeUnit.MINUTES)) {
                    clients.forEach(x -> x.process().destroyForcibly());
                    throw new IllegalStateException("a client of " + mode + " x " + n + " ran over an hour: see " + c.log());
                }
                long exited = c.exitedNanos().get();
                last = Math.max(last, exited);
                first = Math.min(first, exited);
                int code = c.process().exitValue();
                // a map with coverage not complete exits 3, an SDK child whose calls failed 3; a client that did not
                // run (a map refusing to start exits 2) is counted too, its last log line shown, and the run goes on
                if (code != 0) {
                    badExits++;
                    if (code != 3) {
                        List<String> lines = Files.readAllLines(c.log());
                        System.err.printf(Locale.ROOT, "  a client exited %d: %s (%s)%n", code,
                                lines.isEmpty() ? "" : lines.get(lines.size() - 1), c.log());
                    }
                }
            }
            sampler.interrupt();
            sampler.join();
            SimStats after = sim.stats();
            long gaveUp = 0;
            long rejected = 0;
            long partial = 0;
            long failed = 0;
            for (Client c : clients) {
                int code = c.process().exitValue();
                if (code != 0 && code != 3) {
                    continue; // it made no map (and no figures)
                }
                if (mode == Mode.SDK) {
                    Properties p = new Properties();
                    try (var in = Files.newInputStream(c.out().resolveSibling(c.out().getFileName() + ".properties"))) {
                        p.load(in);
                    }
                    gaveUp += Long.parseLong(p.getProperty("gave_up"));
                    failed += Long.parseLong(p.getProperty("failed"));
                } else {
                    JsonNode map = JSON.readTree(c.out().resolve("inventory-map.json").toFile());
                    JsonNode services = map.path("summary").path("services");
                    partial += services.path("PARTIAL").asLong();
                    failed += services.path("FAILED").asLong();
                    JsonNode totals = map.path("throttling").path("totals");
                    gaveUp += totals.path("gave_up").asLong();
                    rejected += totals.path("rejected").asLong();
                }
            }
            long over = after.buckets().stream().filter(b -> b.maxAdmittedPerSecond() > b.rate() + b.burst()).count();
            QuotaBound bound = QuotaBound.between(before, after);
            BucketStats busiest = after.bucket(bound.bucket());
            Files.writeString(runDir.resolve("sim-stats.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(after));
            // the buckets that bound the run: more calls admitted than their burst
            List<String> bounding = after.buckets().stream().filter(b -> b.admitted() > b.burst()).map(BucketStats::key).toList();
            Files.writeString(runDir.resolve("timeline.csv"), timeline.csv(bounding));
            double[] phase = timeline.phase(bounding);
            Outcome r = new Outcome(mode, n, round, (last - t0) / 1e9, timeline.firstCallSeconds(), phase[0], phase[1],
                    timeline.spanSeconds(bound.bucket()),
                    (first - t0) / 1e9, after.totals().calls() - before.totals().calls(),
                    after.totals().throttled() - before.totals().throttled(), gaveUp, rejected, partial, failed, badExits, over,
                    bound, busiest, load + " -> " + loadAverage());
            System.err.printf(Locale.ROOT, "(%s) %s, N = %d: %.1f s, %d calls, %d throttled, %d given up%s; emptiest buckets: %s%n",
                    mode.letter, mode.label, n, r.wallSeconds(), r.calls(), r.throttled(), r.gaveUp(),
                    mode == Mode.REDIS || mode == Mode.REDIS_HINTED ? ", " + FleetScalingBench.redisScan(redisPort, "*").size() + " governor keys in Redis" : "",
                    emptiest(after, 4));
            return r;
        }
    }

    /** The {@code k} buckets that were empty longest: key, seconds empty, longest stretch, throttled answers. */
    static String emptiest(SimStats stats, int k) {
        return stats.buckets().stream().filter(b -> b.emptySeconds() > 0)
                .sorted(Comparator.comparingDouble(BucketStats::emptySeconds).reversed()).limit(k)
                .map(b -> String.format(Locale.ROOT, "%s %.1f s (longest %.3f s, %d throttled)", b.key(), b.emptySeconds(),
                        b.longestEmptySeconds(), b.throttled()))
                .toList().toString();
    }

    /** One {@code cloudg map} of the estate into {@code out-i}, through the launcher; with {@code --redis} when given. */
    static List<String> mapCommand(Options o, CloudSim sim, Path runDir, int i, String redisUrl, int fleetSizeHint)
            throws IOException {
        Path config = runDir.resolve("cloudg.yaml");
        if (!Files.exists(config)) {
            Files.writeString(config, String.join("\n",
                    "providers: [aws]",
                    "aws:",
                    "  endpoint_url: " + sim.awsEndpoint(),
                    "  access_key_id: " + sim.managementCredentials().accessKeyId(),
                    "  secret_access_key: " + sim.managementCredentials().secretAccessKey(),
                    "  org: true",
                    "  regions: [" + String.join(", ", o.regions()) + "]",
                    "  collectors: [" + String.join(", ", o.collectors()) + "]",
                    "  cloudcontrol_sweep: false",
                    "  tagging_sweep: false",
                    "ratelimit:",
                    "  state_file: none",
                    fleetSizeHint > 0 ? "  redis: {fleet_size_hint: " + fleetSizeHint + "}" : "",
                    ""));
        }
        List<String> cmd = new ArrayList<>(List.of(o.cloudg().toString(), "map", "--config", config.toString(), "--out",
                runDir.resolve("out-" + i).toString(), "--no-progress"));
        if (redisUrl != null) {
            cmd.addAll(List.of("--redis", redisUrl));
        }
        return cmd;
    }

    /**
     * One JVM of the AWS SDK alone: the launcher's JVM options for {@code map}, every account of the organization. As
     * the launcher starts cloudg's JVMs from the build's class-data archive, the SDK's start from one of their own:
     * the reference run ({@code alone}) writes it at its exit ({@code -XX:ArchiveClassesAtExit}), the others read it.
     */
    static List<String> sdkCommand(Options o, CloudSim sim, Path out, boolean reference) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(SdkFloorBench.LAUNCHER_MAP_JVM);
        Path archive = o.dir().resolve("sdk-child.jsa");
        if (reference) {
            cmd.add("-XX:ArchiveClassesAtExit=" + archive);
        } else if (Files.exists(archive)) {
            cmd.add("-XX:SharedArchiveFile=" + archive);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SdkFloorBench.Child.class.getName(),
                sim.awsEndpoint().toString(), sim.managementCredentials().accessKeyId(),
                sim.managementCredentials().secretAccessKey(), String.join(",", o.regions()), "1",
                Integer.toString(o.sdkThreads()), out.toString(), "0", "1"));
        cmd.addAll(new SdkFloorBench.Child.Options(o.sdkRetry(), Set.copyOf(o.collectors()), true, true).args());
        return cmd;
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /**
     * The sim's counters sampled every 250 ms while a run lasts: when the first call was answered, and each bucket's
     * admitted and throttled calls over time (how fast the busiest bucket was drained, and when).
     */
    static final class Timeline implements Runnable {
        private final CloudSim sim;
        private final long t0;
        private final List<Long> times = new ArrayList<>();
        private final List<Map<String, long[]>> samples = new ArrayList<>();
        private volatile long firstCall = -1;

        Timeline(CloudSim sim, long t0) {
            this.sim = sim;
            this.t0 = t0;
        }

        @Override
        public void run() {
            while (true) {
                sample();
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    sample();
                    return;
                }
            }
        }

        private synchronized void sample() {
            SimStats s = sim.stats();
            long now = System.nanoTime();
            if (firstCall < 0 && s.totals().calls() > 0) {
                firstCall = now;
            }
            Map<String, long[]> m = new HashMap<>();
            s.buckets().forEach(b -> m.put(b.key(), new long[] {b.admitted(), b.throttled()}));
            times.add(now);
            samples.add(m);
        }

        double firstCallSeconds() {
            return firstCall < 0 ? Double.NaN : (firstCall - t0) / 1e9;
        }

        /** From the sample where {@code key} first had an admitted call to the one where it had all of them. */
        double spanSeconds(String key) {
            double[] fl = phase(List.of(key));
            return fl[1] - fl[0];
        }

        /**
         * Seconds since the first launch of the first sample where one of {@code keys} had an admitted call, and of the
         * first sample where every one of them had all its calls.
         */
        synchronized double[] phase(List<String> keys) {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (String key : keys) {
                long total = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).getOrDefault(key, new long[2])[0];
                for (int i = 0; i < samples.size(); i++) {
                    long admitted = samples.get(i).getOrDefault(key, new long[2])[0];
                    if (admitted > 0) {
                        first = Math.min(first, times.get(i));
                    }
                    if (admitted == total) {
                        last = Math.max(last, times.get(i));
                        break;
                    }
                }
            }
            return first > last ? new double[] {Double.NaN, Double.NaN} : new double[] {(first - t0) / 1e9, (last - t0) / 1e9};
        }

        /** Seconds since the first launch, and each of {@code keys}' admitted and throttled calls then. */
        synchronized String csv(List<String> keys) {
            StringBuilder sb = new StringBuilder("seconds");
            keys.forEach(k -> sb.append(',').append(k).append(" admitted,").append(k).append(" throttled"));
            sb.append('\n');
            for (int i = 0; i < samples.size(); i++) {
                sb.append(String.format(Locale.ROOT, "%.2f", (times.get(i) - t0) / 1e9));
                for (String k : keys) {
                    long[] v = samples.get(i).getOrDefault(k, new long[2]);
                    sb.append(',').append(v[0]).append(',').append(v[1]);
                }
                sb.append('\n');
            }
            return sb.toString();
        }
    }
}
