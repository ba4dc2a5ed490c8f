package io.cloudg.bench.map;

import io.cloudg.bench.map.QuotaBound;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.LatencySpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A latency-bound estate (issue 37): {@link ClientCpuBench}'s organization (default 200 accounts x 4 regions) with
 * every collector, served by a cloud-sim in this JVM that answers each call after 50-150 ms, mapped by each
 * contender's {@code ./cloudg map} with the default configuration, in the order given (a name may come back: {@code
 * new=. old=DIR new=.} alternates). Each map gets a fresh sim. What bounds a map from below is the larger of
 * <ul>
 *   <li>the CPU bound: the client's CPU seconds (user + system of the map's JVM) plus the sim's (this JVM's, over
 *       the map) over the machine's cores, and</li>
 *   <li>the quota bound ({@link QuotaBound}): the busiest sim bucket's admitted calls beyond its burst over its
 *       rate;</li>
 * </ul>
 * the table gives the wall time over that bound, with the calls, the throttled answers, the buckets that admitted
 * more than rate + burst in some second (over quota), the most calls in flight at the sim at once (overall and for
 * one account) and their mean over the map (sampled each second), the client's peak RSS, and whether the map
 * equals the sim's truth (AWS assets, key by key). "Cores used" is the client's and the sim's CPU over the wall time:
 * near the cores the run had, the map was CPU-bound. The load average before and after each map says how much of the
 * machine the run had.
 *
 * <p>Usage: {@code LatencyBoundBench [accounts] [regions] [--latency-ms MIN-MAX] [--cores N] name=DIR[@JVM-OPTIONS] ...}
 * (default {@code 200 4 --latency-ms 50-150 --cores} the machine's, {@code new=.}).
 */
public final class LatencyBoundBench {
    private LatencyBoundBench() {
    }

    record Run(String name, double wall, double clientCpu, double simCpu, int cores, QuotaBound quota, long calls,
               long throttled, long overQuota, int peakInFlight, int peakAccount, double meanInFlight, long rssMiB,
               long heapAfterGcMiB, long assets, long truth, int exit, String load) {
        double cpuBound() {
            return (clientCpu + simCpu) / cores;
        }

        double bound() {
            return Math.max(cpuBound(), quota.seconds());
        }
    }

    public static void main(String[] args) throws Exception {
        int accounts = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int regions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int minMs = 50;
        int maxMs = 150;
        int cores = Runtime.getRuntime().availableProcessors();
        List<String[]> contenders = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--latency-ms" -> {
                    String[] mm = args[++i].split("-", 2);
                    minMs = Integer.parseInt(mm[0]);
                    maxMs = Integer.parseInt(mm[1]);
                }
                case "--cores" -> cores = Integer.parseInt(args[++i]);
                default -> {
                    String[] kv = args[i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("a contender is name=DIR[@JVM-OPTIONS], but was: " + args[i]);
                    }
                    String[] dirAndOptions = kv[1].split("@", 2);
                    contenders.add(new String[] {kv[0], dirAndOptions[0], dirAndOptions.length > 1 ? dirAndOptions[1] : ""});
                }
            }
        }
        if (contenders.isEmpty()) {
            contenders.add(new String[] {"new", ".", ""});
        }
        EstateSpec estate = ClientCpuBench.estate(accounts,
                        ClientCpuBench.ALL_REGIONS.subList(0, Math.min(regions, ClientCpuBench.ALL_REGIONS.size())))
                .withLatency(new LatencySpec(Duration.ofMillis(minMs), Duration.ofMillis(maxMs - minMs)));
        List<Run> runs = new ArrayList<>();
        for (String[] c : contenders) {
            Run r = run(c[0], Path.of(c[1]).toAbsolutePath(), c[2], estate, cores);
            System.err.println(r);
            runs.add(r);
            System.out.print(table(accounts, regions, minMs, maxMs, runs)); // so far: a long run can be read as it goes
        }
        System.out.print(ratios(runs));
        System.exit(0);
    }

    static Run run(String name, Path build, String jvmOptions, EstateSpec estate, int cores) throws Exception {
        Path work = Files.createTempDirectory("cloudg-latency-" + name);
        System.err.printf(Locale.ROOT, "%s %s (%s): mapping%n", LocalTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS),
                name, build);
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
            Path config = ClientCpuBench.writeConfig(sim, work);
            Path times = work.resolve("time.txt");
            Path log = work.resolve("map.log");
            String command = "exec /usr/bin/time -o '" + times + "' -f '%U %S %M' env "
                    + ClientCpuBench.startCommand(build, jvmOptions, work.resolve("gc.log"))
                    + " map --config '" + config + "' --out '" + work + "' --no-progress > '" + log + "' 2>&1";
            String loadBefore = loadAverage();
            SimStats before = sim.stats();
            AtomicLong samples = new AtomicLong();
            AtomicLong inFlightSum = new AtomicLong();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleAtFixedRate(() -> {
                inFlightSum.addAndGet(sim.stats().inFlight().now());
                samples.incrementAndGet();
            }, 1, 1, TimeUnit.SECONDS);
            long cpu0 = processCpuNanos();
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder("bash", "-c", command).inheritIO().start();
            int exit = p.waitFor();
            double wall = (System.nanoTime() - t0) / 1e9;
            sampler.shutdownNow();
            sampler.awaitTermination(10, TimeUnit.SECONDS);
            // the sim's CPU: this JVM's over the map, less the sampler's stats (a few ms a second)
            double simCpu = (processCpuNanos() - cpu0) / 1e9;
            SimStats after = sim.stats();
            String load = loadBefore + " -> " + loadAverage();
            String[] t = Files.readString(times).trim().split("\\s+");
            double clientCpu = Double.parseDouble(t[0]) + Double.parseDouble(t[1]);
            long rssMiB = Long.parseLong(t[2]) / 1024;
            Set<String> truth = ClientCpuBench.truthKeys(sim);
            Set<String> mapped = ClientCpuBench.mappedKeys(work.resolve("inventory-map.json"));
            ClientCpuBench.reportDifference(mapped, truth);
            if (exit != 0) {
                System.err.println(name + ": exit " + exit + "; the map's last lines:");
                List<String> lines = Files.readAllLines(log);
                lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(System.err::println);
            }
            long over = after.buckets().stream().filter(b -> b.maxAdmittedPerSecond() > b.rate() + b.burst()).count();
            return new Run(name, wall, clientCpu, simCpu, cores, QuotaBound.between(before, after),
                    after.totals().calls() - before.totals().calls(), after.totals().throttled() - before.totals().throttled(),
                    over, after.inFlight().peak(), after.inFlight().highestAccountPeak(),
                    samples.get() == 0 ? 0 : (double) inFlightSum.get() / samples.get(), rssMiB,
                    ClientCpuBench.largestHeapAfterGcMiB(work.resolve("gc.log")), mapped.equals(truth) ? mapped.size() : -mapped.size(),
                    truth.size(), exit, load);
        } finally {
            ClientCpuBench.deleteTree(work);
        }
    }

    static String table(int accounts, int regions, int minMs, int maxMs, List<Run> runs) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%n%d accounts x %d regions, every collector, %d-%d ms a call%n%n", accounts, regions, minMs, maxMs));
        sb.append("| run | wall (s) | client CPU (s) | sim CPU (s) | CPU bound (s) | quota bound (s) | wall / bound | cores used | calls "
                + "| throttled | buckets over quota | peak in flight (one account) | mean in flight | peak RSS (MiB) "
                + "| heap after GC (MiB) | equal to the truth | exit | load |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            sb.append(String.format(Locale.ROOT,
                    "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2f | %,d | %d | %d | %,d (%d) | %.0f | %d | %d | %s | %d | %s |%n",
                    r.name(), r.wall(), r.clientCpu(), r.simCpu(), r.cpuBound(), r.quota().seconds(), r.wall() / r.bound(),
                    (r.clientCpu() + r.simCpu()) / r.wall(), r.calls(), r.throttled(), r.overQuota(), r.peakInFlight(), r.peakAccount(), r.meanInFlight(),
                    r.rssMiB(), r.heapAfterGcMiB(), r.assets() >= 0 ? "yes (" + r.assets() + ")" : "NO (" + -r.assets()
                            + " of " + r.truth() + ")", r.exit(), r.load()));
        }
        return sb.toString();
    }

    /** Each name's median wall time and wall / bound, and every name's against the first's. */
    static String ratios(List<Run> runs) {
        Map<String, List<Run>> byName = new LinkedHashMap<>();
        runs.forEach(r -> byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r));
        StringBuilder sb = new StringBuilder("\n");
        String first = null;
        double firstWall = 0;
        for (Map.Entry<String, List<Run>> e : byName.entrySet()) {
            double wall = median(e.getValue().stream().mapToDouble(Run::wall).toArray());
            double overBound = median(e.getValue().stream().mapToDouble(r -> r.wall() / r.bound()).toArray());
            sb.append(String.format(Locale.ROOT, "%s: median wall %.1f s, %.2fx its bound (%d maps)", e.getKey(), wall,
                    overBound, e.getValue().size()));
            if (first == null) {
                first = e.getKey();
                firstWall = wall;
            } else {
                sb.append(String.format(Locale.ROOT, "; wall %.2fx %s's", wall / firstWall, first));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0];
        } catch (Exception e) {
            return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}
