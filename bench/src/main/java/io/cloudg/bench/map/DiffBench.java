package io.cloudg.bench.map;

import io.cloudg.diff.DiffReport;
import io.cloudg.diff.DiffSide;
import io.cloudg.diff.MapDiff;
import io.cloudg.diff.SortedAssets;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.RunFiles;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code cloudg diff} on two large maps in a small heap: writes two maps of {@code n} assets (the second
 * with 1% removed, 1% added and 10% changed, in another order), then diffs them with the external sort's
 * in-memory budget and reports the time, the changes found and the heap's peak. Run it with a heap far
 * smaller than the maps to show that memory does not grow with them:
 * <pre>
 * java -Xmx128m -cp bench/target/benchmarks.jar io.cloudg.bench.map.DiffBench 300000 /tmp/diffbench
 * </pre>
 */
public final class DiffBench {
    private DiffBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        Path dir = Path.of(args.length > 1 ? args[1] : System.getProperty("java.io.tmpdir")).resolve("cloudg-diffbench");
        Files.createDirectories(dir);
        Path a = write(dir.resolve("a"), "20260101-000000-aaaaaa", n, false);
        Path b = write(dir.resolve("b"), "20260102-000000-bbbbbb", n, true);
        System.out.printf(Locale.ROOT, "maps: %,d and %,d bytes; heap max %d MB%n", Files.size(a.resolve("inventory-map.json")),
                Files.size(b.resolve("inventory-map.json")), Runtime.getRuntime().maxMemory() >> 20);
        System.gc();
        java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        long t0 = System.nanoTime();
        MapDiff.Counts c;
        try (DiffSide x = DiffSide.ofMap(a, dir, SortedAssets.DEFAULT_BUDGET);
             DiffSide y = DiffSide.ofMap(b, dir, SortedAssets.DEFAULT_BUDGET);
             DiffReport report = new DiffReport(dir)) {
            c = MapDiff.compare(x, y, report);
            report.writeText(new PrintStream(java.io.OutputStream.nullOutputStream()), x, y, c, 50);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        sampler.interrupt();
        System.out.printf(Locale.ROOT, "diff of %,d assets: %.1f s (%,.0f assets/s per side); %s; heap used at most %d MB "
                + "(sampled every 20 ms, garbage included)%n", n, s, n / s, c, peak.get() >> 20);
    }

    static Path write(Path out, String runId, int n, boolean second) {
        AssetSpool spool = AssetSpool.temporary(out);
        for (int k = 0; k < n; k++) {
            int i = second ? (int) ((k * 7919L) % n) : k;
            if (second && i % 100 == 0) {
                continue;
            }
            spool.accept(asset(i, second && i % 10 == 1 ? "changed" : "prod"));
            if (second && i % 100 == 50) {
                spool.accept(asset(n + i, "prod"));
            }
        }
        List<CoverageRecord> coverage = List.of(new CoverageRecord("aws", "100000000000", "us-east-1",
                List.of(ServiceCoverage.success("instances", spool.count()))));
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("id", runId);
        run.put("mode", "embedded");
        run.put("providers", List.of("aws"));
        run.put("started_at", "2026-01-01T00:00:00Z");
        run.put("finished_at", "2026-01-01T00:01:00Z");
        run.put("governor", "memory");
        RunFiles.write(out, 1, run, Summary.of(spool.count(), coverage, 60, null), coverage, null, spool);
        spool.delete();
        return out;
    }

    static Asset asset(int i, String env) {
        String account = String.format(Locale.ROOT, "%012d", 100_000_000_000L + i % 500);
        String id = "i-" + Long.toHexString(0x10000000000L + i * 2654435761L % 0xFFFFFFFFL);
        return new Asset("aws", account, "us-east-1", "ec2", "AWS::EC2::Instance", id + "-" + i, "res-" + i,
                "arn:aws:ec2:us-east-1:" + account + ":instance/" + id, Map.of("env", env, "team", "t" + i % 40),
                Map.of("state", "running", "size", i % 16));
    }

}
