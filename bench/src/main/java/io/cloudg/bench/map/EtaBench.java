package io.cloudg.bench.map;

import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.LatencySpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How right the progress line's ETA is, which users plan long maps by: an embedded {@code cloudg map} of ClientCpuBench's
 * estate (default 200 accounts x 4 regions, 5-15 ms a call) through a build's {@code ./cloudg}, mapped twice into one output
 * directory: the first map knows nothing of the estate's sizes (the ETA comes from what the run learns), the
 * second has the first's map (the sizes the ETA starts from). The child's stderr is not a terminal, so it logs a
 * progress line every 10 s; each line is stamped as it arrives, and the run's end is the child's exit. At 25, 50
 * and 75% of the map's wall time the nearest progress line's ETA is compared with the time that was really left,
 * error = (ETA - left) / left, and so is every line from 25% of the run on (the worst of them is the "worst from
 * 25%" column). Every map is checked against the sim's truth.
 *
 * <p>Several builds can be measured side by side ({@code name=DIR}, each a directory holding {@code cli/target}):
 * each maps its own fresh sim of the same estate, one after the other. The lines of the older progress format
 * ({@code [652/17837 jobs, 3%]}) and of the newer ({@code 652/17837 jobs (3%)}) are both read.
 *
 * <p>Usage: {@code EtaBench [accounts] [regions] [--latency-ms MIN-MAX] [--trace DIR] [name=DIR ...]} (default
 * {@code 200 4 --latency-ms 5-15 after=.}). {@code --trace} keeps each map's stamped progress lines in DIR.
 */
public final class EtaBench {
    private static final Pattern JOBS = Pattern.compile("(\\d+)/(\\d+) jobs");
    private static final Pattern ETA = Pattern.compile("ETA ([0-9:]+|--:--)");

    private EtaBench() {
    }

    record Sample(double at, long done, long total, double eta, String line) {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        int minMs = 5;
        int maxMs = 15;
        Path trace = null;
        Map<String, Path> builds = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--latency-ms")) {
                String[] mm = args[++i].split("-", 2);
                minMs = Integer.parseInt(mm[0]);
                maxMs = Integer.parseInt(mm[1]);
            } else if (args[i].equals("--trace")) {
                trace = Files.createDirectories(Path.of(args[++i]));
            } else if (args[i].contains("=")) {
                String[] kv = args[i].split("=", 2);
                builds.put(kv[0], Path.of(kv[1]).toAbsolutePath());
            } else if (sizes.size() < 2 && args[i].matches("\\d+")) {
                sizes.add(Integer.parseInt(args[i]));
            } else {
                builds.put("after", Path.of(args[i]).toAbsolutePath()); // the older form: [accounts] [regions] [build-dir]
            }
        }
        int accounts = sizes.size() > 0 ? sizes.get(0) : 200;
        int regions = sizes.size() > 1 ? sizes.get(1) : 4;
        if (builds.isEmpty()) {
            builds.put("after", Path.of(".").toAbsolutePath());
        }
        EstateSpec estate = ClientCpuBench.estate(accounts,
                        ClientCpuBench.ALL_REGIONS.subList(0, Math.min(regions, ClientCpuBench.ALL_REGIONS.size())))
                .withLatency(new LatencySpec(Duration.ofMillis(minMs), Duration.ofMillis(maxMs - minMs)));
        StringBuilder table = new StringBuilder("| build | map | accounts x regions, latency | wall (s) | equal to the truth "
                + "| at | progress line | ETA (s) | really left (s) | error | worst from 25% |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, Path> build : builds.entrySet()) {
            Path work = Files.createTempDirectory("cloudg-eta");
            try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
                Path config = ClientCpuBench.writeConfig(sim, work);
                Set<String> truth = sim.truth().assets().stream().filter(a -> a.provider().equals("aws"))
                        .map(a -> a.account() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                        .collect(Collectors.toCollection(TreeSet::new));
                for (String map : List.of("first", "second")) {
                    List<Sample> samples = new ArrayList<>();
                    double wall = map(build.getValue(), config, work.resolve("out"), samples);
                    boolean equal = ClientCpuBench.mappedKeys(work.resolve("out/inventory-map.json")).equals(truth);
                    System.err.printf(Locale.ROOT, "%s, %s map: %.1f s, %d progress lines, equal to the truth: %s%n",
                            build.getKey(), map, wall, samples.size(), equal);
                    if (trace != null) {
                        writeTrace(trace.resolve(build.getKey() + "-" + map + ".txt"), samples, wall);
                    }
                    String worst = worstFrom(samples, wall, 0.25);
                    for (double share : new double[] {0.25, 0.5, 0.75}) {
                        Sample s = nearest(samples, share * wall);
                        String head = String.format(Locale.ROOT, "| %s | %s | %d x %d, %d-%d ms | %.1f | %s | %.0f%% |",
                                build.getKey(), map, accounts, regions, minMs, maxMs, wall, equal ? "yes" : "NO", share * 100);
                        if (s == null) {
                            table.append(head).append(" none | | | | ").append(worst).append(" |\n");
                            continue;
                        }
                        double left = wall - s.at();
                        table.append(head).append(String.format(Locale.ROOT, " at %.1f s: %d/%d jobs | %s | %.1f | %s | %s |%n",
                                s.at(), s.done(), s.total(), Double.isNaN(s.eta()) ? "--:--"
                                        : String.format(Locale.ROOT, "%.0f", s.eta()), left, error(s, wall), worst));
                    }
                }
            } finally {
                try (var walk = Files.walk(work)) {
                    for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }
        System.out.println(table);
        System.exit(0);
    }

    /** Maps with the build in {@code build} into {@code out}; returns the wall time, {@code samples} filled. */
    private static double map(Path build, Path config, Path out, List<Sample> samples) throws Exception {
        // through the build's launcher, as a user maps (its JVM options shape the climb the ETA must see through);
        // no --no-progress: the child's stderr is a pipe, so the progress comes as a log line every 10 s
        ProcessBuilder pb = new ProcessBuilder(build.resolve("cloudg").toString(), "map", "--config", config.toString(),
                "--out", out.toString()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        long t0 = System.nanoTime();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher jobs = JOBS.matcher(line);
                Matcher eta = ETA.matcher(line);
                if (line.contains("cloudg.progress") && jobs.find() && eta.find()) {
                    samples.add(new Sample((System.nanoTime() - t0) / 1e9, Long.parseLong(jobs.group(1)),
                            Long.parseLong(jobs.group(2)), seconds(eta.group(1)), line));
                }
            }
        }
        p.waitFor();
        return (System.nanoTime() - t0) / 1e9;
    }

    private static String error(Sample s, double wall) {
        double left = wall - s.at();
        return Double.isNaN(s.eta()) ? "-" : String.format(Locale.ROOT, "%+.0f%%", 100 * (s.eta() - left) / left);
    }

    /** The largest |error| of the lines from {@code share} of the run on (the last 10 s excepted), with its sign. */
    static String worstFrom(List<Sample> samples, double wall, double share) {
        Sample worst = null;
        double worstAbs = -1;
        int unknown = 0;
        for (Sample s : samples) {
            double left = wall - s.at();
            if (s.at() < share * wall || left < 10) {
                continue;
            }
            if (Double.isNaN(s.eta())) {
                unknown++;
                continue;
            }
            double e = Math.abs(s.eta() - left) / left;
            if (e > worstAbs) {
                worstAbs = e;
                worst = s;
            }
        }
        String w = worst == null ? "-" : error(worst, wall) + " at " + Math.round(100 * worst.at() / wall) + "%";
        return unknown == 0 ? w : w + " (" + unknown + " without an ETA)";
    }

    private static void writeTrace(Path file, List<Sample> samples, double wall) throws Exception {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.printf(Locale.ROOT, "# wall %.1f s%n", wall);
            for (Sample s : samples) {
                w.printf(Locale.ROOT, "%.1f\t%.1f\t%s\t%s%n", s.at(), wall - s.at(), error(s, wall), s.line());
            }
        }
    }

    private static Sample nearest(List<Sample> samples, double at) {
        Sample best = null;
        for (Sample s : samples) {
            if (best == null || Math.abs(s.at() - at) < Math.abs(best.at() - at)) {
                best = s;
            }
        }
        return best;
    }

    /** {@code m:ss} or {@code h:mm:ss}; {@code --:--} is NaN. */
    private static double seconds(String clock) {
        if (clock.startsWith("-")) {
            return Double.NaN;
        }
        double s = 0;
        for (String part : clock.split(":")) {
            s = s * 60 + Integer.parseInt(part);
        }
        return s;
    }
}
