package io.cloudg.bench.fleet;

import io.cloudg.fleet.coordinator.AttemptTracker;
import io.cloudg.fleet.coordinator.FleetThrottling;
import io.cloudg.fleet.coordinator.ResultAggregator;
import io.cloudg.fleet.coordinator.StagingArea;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.destination.RunStart;
import io.cloudg.fleet.protocol.AssetChunk;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.fleet.protocol.TaskDone;
import io.cloudg.fleet.protocol.TaskStarted;
import io.cloudg.fleet.protocol.Wire;
import io.cloudg.fleet.protocol.WireTarget;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.output.RunOutput;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The coordinator's heap as a fleet run's results stream in: a coordinator must assemble an organization's map
 * in a small pod, so the target is at most 256 MiB at 1,000,000 assets (BENCHMARKS.md, "The coordinator's heap").
 * A full fleet run of that size does not fit the 2-core build machine, so this drives the coordinator's own
 * aggregation path with a synthetic result stream: for every task of a 1,000 accounts x 17 regions plan,
 * {@code started}, asset chunks of 500 ({@code fleet.worker.chunk_assets}' default) and {@code done}, each
 * encoded to the wire's JSON bytes and decoded again by {@link MessageCodec} as the coordinator's loop does,
 * into the {@link ResultAggregator} (with its {@link StagingArea} and the run's {@link AssetSpool}), with
 * {@code --in-flight} executions interleaved; then the run's map is written ({@link RunOutput#finish}).
 * Kafka is not involved. A sampler forces a full collection every second and keeps the largest heap in use
 * right after it. Run it with the heap the target allows ({@code -Xmx256m}): it fails with an
 * OutOfMemoryError if the path holds what it streams.
 *
 * <p>Usage: {@code CoordinatorHeapBench [--assets 1000000] [--accounts 1000] [--regions 17] [--in-flight 64]}.
 * It lives in the coordinator's package for its package-private aggregation classes.
 */
public final class CoordinatorHeapBench {
    private static final List<String> COLLECTORS = List.of("vpc", "subnet", "security_group", "instance", "volume");

    private CoordinatorHeapBench() {
    }

    public static void main(String[] args) throws Exception {
        long assets = 1_000_000;
        int accounts = 1000;
        int regions = 17;
        int inFlight = 64;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--assets" -> assets = Long.parseLong(args[i + 1]);
                case "--accounts" -> accounts = Integer.parseInt(args[i + 1]);
                case "--regions" -> regions = Integer.parseInt(args[i + 1]);
                case "--in-flight" -> inFlight = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        AtomicLong maxAfterGc = new AtomicLong();
        Thread sampler = io.cloudg.bench.map.MemoryBench.heapSampler(maxAfterGc);

        Path out = Files.createTempDirectory("cloudg-coordinator-heap");
        String runId = "heap-bench";
        MessageCodec codec = new MessageCodec();
        List<PlannedTask> plan = new ArrayList<>();
        for (int a = 0; a < accounts; a++) {
            for (int r = 0; r < regions; r++) {
                String account = String.format(Locale.ROOT, "%012d", 100_000_000_000L + a);
                String region = "region-" + r;
                plan.add(new PlannedTask("aws/" + account + "/" + region + "#0", "aws/" + account + "/" + region, 0,
                        new WireTarget("aws", account, region, COLLECTORS, Map.of()), false, 100));
            }
        }
        long perTask = assets / plan.size();
        long extra = assets % plan.size();
        CloudGConfig config = CloudGConfig.fromYaml("providers: [aws]\noutput_dir: " + out.toAbsolutePath() + "\n");
        long t0 = System.nanoTime();
        System.gc();
        long baseline = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        sampler.start();
        RunOutput output = RunOutput.start(config, new RunStart(runId, "distributed", List.of("aws"), Instant.now()), true);
        AssetSpool spool = output.spool();
        InventoryResult result;
        long bytes = 0;
        try (RunOutput closing = output; StagingArea staging = new StagingArea(out.resolve(".cloudg-staging-" + runId))) {
            AttemptTracker tracker = new AttemptTracker(900_000, 60_000, 60_000, 3);
            plan.forEach(t -> tracker.published(t.taskId(), 1));
            ResultAggregator results = new ResultAggregator(plan, spool, staging, tracker,
                    new FleetThrottling(new ThrottlingStats()));
            // executions in flight: each started, then their chunks interleaved round-robin, then done
            for (int from = 0; from < plan.size(); from += inFlight) {
                List<PlannedTask> batch = plan.subList(from, Math.min(plan.size(), from + inFlight));
                List<Long> counts = new ArrayList<>();
                for (int i = 0; i < batch.size(); i++) {
                    PlannedTask t = batch.get(i);
                    long n = perTask + (from + i < extra ? 1 : 0);
                    counts.add(n);
                    bytes += feed(codec, results, new TaskStarted(Wire.VERSION, runId, t.taskId(), 1, exec(t), "w1", 1));
                }
                for (int seq = 0; ; seq++) {
                    boolean any = false;
                    for (int i = 0; i < batch.size(); i++) {
                        long n = counts.get(i);
                        long start = (long) seq * 500;
                        if (start >= n) {
                            continue;
                        }
                        any = true;
                        PlannedTask t = batch.get(i);
                        List<Asset> chunk = new ArrayList<>();
                        for (long k = start; k < Math.min(n, start + 500); k++) {
                            chunk.add(asset(t, k));
                        }
                        bytes += feed(codec, results, new AssetChunk(Wire.VERSION, runId, t.taskId(), exec(t), seq, chunk));
                    }
                    if (!any) {
                        break;
                    }
                }
                for (int i = 0; i < batch.size(); i++) {
                    PlannedTask t = batch.get(i);
                    long n = counts.get(i);
                    List<ServiceCoverage> coverage = new ArrayList<>();
                    for (int c = 0; c < COLLECTORS.size(); c++) {
                        long share = n / COLLECTORS.size() + (c < n % COLLECTORS.size() ? 1 : 0);
                        coverage.add(ServiceCoverage.success(COLLECTORS.get(c), share));
                    }
                    int chunks = (int) ((n + 499) / 500);
                    bytes += feed(codec, results, new TaskDone(Wire.VERSION, runId, t.taskId(), 1, exec(t), "w1", chunks, n,
                            coverage, WireThrottling.NONE, 1, 2));
                }
            }
            if (!results.complete()) {
                throw new IllegalStateException("the aggregator did not take every task: " + results.done() + " of "
                        + results.total());
            }
            List<CoverageRecord> coverage = results.coverage();
            double seconds = (System.nanoTime() - t0) / 1e9;
            Summary summary = Summary.of(spool.count(), spool.countByProvider(), coverage, seconds, null);
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("id", runId);
            run.put("mode", "distributed");
            result = output.finish(runId, run, summary, coverage, null, Instant.now());
        }
        sampler.interrupt();
        sampler.join();
        double elapsed = (System.nanoTime() - t0) / 1e9;
        if (result.assetCount() != assets) {
            throw new IllegalStateException("the map holds " + result.assetCount() + " assets, not " + assets);
        }
        long mapBytes = Files.size(result.mapFile());
        System.out.println("| plan | assets | result stream (MiB of wire JSON) | inventory-map.json (MiB) | -Xmx (MiB) "
                + "| heap before (MiB) | max live heap (MiB) | elapsed (s) |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| %d accounts x %d regions = %d tasks, %d in flight | %,d | %d | %d | %d | %d | %d | %.0f |%n",
                accounts, regions, plan.size(), inFlight, result.assetCount(), bytes >> 20, mapBytes >> 20,
                Runtime.getRuntime().maxMemory() >> 20, baseline >> 20, maxAfterGc.get() >> 20, elapsed);
        try (var walk = Files.walk(out)) {
            for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
        System.exit(0);
    }

    private static String exec(PlannedTask t) {
        return "w1:" + t.taskId();
    }

    /** Encodes as a worker would and decodes as the coordinator does; returns the bytes on the wire. */
    private static int feed(MessageCodec codec, ResultAggregator results, Object message) {
        byte[] wire = codec.encode(message);
        results.onResult(codec.result(wire), 0);
        return wire.length;
    }

    /** An asset of a typical size: an id, a name, an ARN, two tags and one attribute. */
    private static Asset asset(PlannedTask t, long k) {
        String type = switch ((int) (k % 5)) {
            case 0 -> "AWS::EC2::VPC";
            case 1 -> "AWS::EC2::Subnet";
            case 2 -> "AWS::EC2::SecurityGroup";
            case 3 -> "AWS::EC2::Instance";
            default -> "AWS::EC2::Volume";
        };
        String id = String.format(Locale.ROOT, "r-%017x", (t.taskId().hashCode() & 0xffffffffL) << 20 | k);
        WireTarget w = t.target();
        return new Asset("aws", w.accountId(), w.region(), "ec2", type, id, "name-" + k,
                "arn:aws:ec2:" + w.region() + ":" + w.accountId() + ":resource/" + id,
                Map.of("env", k % 2 == 0 ? "prod" : "dev", "team", "team-" + (k % 7)), Map.of("state", "available"));
    }
}
