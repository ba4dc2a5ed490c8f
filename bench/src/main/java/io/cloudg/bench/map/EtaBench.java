package io.cloudg.bench.map;

import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How right the progress line's ETA is, which users plan long maps by: an embedded {@code cloudg map} of ClientCpuBench's estate
 * (default 200 accounts x 4 regions, 5-15 ms a call) in a child JVM, mapped twice into one output directory:
 * the first map knows nothing of the estate's sizes (the ETA comes from what the run learns), the second has
 * the first's map (the sizes the ETA starts from). The child logs a progress line every 10 s (no terminal);
 * each line is stamped as it arrives, and the run's end is the child's exit. At 25, 50 and 75% of the map's
 * wall time the nearest progress line's ETA is compared with the time that was really left:
 * error = (ETA - left) / left. Every map is checked against the sim's truth.
 *
 * <p>Usage: {@code EtaBench [accounts] [regions] [build-dir]} (default {@code 200 4 .}).
 */
public final class EtaBench {
    private static final Pattern LINE = Pattern.compile("progress: \\[(\\d+)/(\\d+) jobs, (\\d+)%].*ETA ([0-9:]+|--:--)");

    private EtaBench() {
    }

    record Sample(double at, long done, long total, int percent, double eta) {
    }

    public static void main(String[] args) throws Exception {
        int accounts = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int regions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Path build = Path.of(args.length > 2 ? args[2] : ".").toAbsolutePath();
        EstateSpec estate = ClientCpuBench.estate(accounts,
                ClientCpuBench.ALL_REGIONS.subList(0, Math.min(regions, ClientCpuBench.ALL_REGIONS.size())));
        Path work = Files.createTempDirectory("cloudg-eta");
        StringBuilder table = new StringBuilder("| map | accounts x regions | wall (s) | equal to the truth | at | progress "
                + "line | ETA (s) | really left (s) | error |\n|---|---|---|---|---|---|---|---|---|\n");
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
            Path config = ClientCpuBench.writeConfig(sim, work);
            Set<String> truth = sim.truth().assets().stream().filter(a -> a.provider().equals("aws"))
                    .map(a -> a.account() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                    .collect(Collectors.toCollection(TreeSet::new));
            for (String map : List.of("first (no previous map)", "second (the first's sizes)")) {
                String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                String cp = build.resolve("cli/target/cloudg-cli.jar") + File.pathSeparator + build.resolve("cli/target/lib") + "/*";
                Process p = new ProcessBuilder(java, "-cp", cp, "io.cloudg.cli.Main", "map", "--config", config.toString(),
                        "--out", work.resolve("out").toString(), "--no-progress").redirectErrorStream(true).start();
                long t0 = System.nanoTime();
                List<Sample> samples = new ArrayList<>();
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        Matcher m = LINE.matcher(line);
                        if (m.find()) {
                            samples.add(new Sample((System.nanoTime() - t0) / 1e9, Long.parseLong(m.group(1)),
                                    Long.parseLong(m.group(2)), Integer.parseInt(m.group(3)), seconds(m.group(4))));
                        }
                    }
                }
                p.waitFor();
                double wall = (System.nanoTime() - t0) / 1e9;
                boolean equal = ClientCpuBench.mappedKeys(work.resolve("out/inventory-map.json")).equals(truth);
                System.err.printf(Locale.ROOT, "%s: %.1f s, %d progress lines, equal to the truth: %s%n", map, wall,
                        samples.size(), equal);
                for (double share : new double[] {0.25, 0.5, 0.75}) {
                    Sample s = nearest(samples, share * wall);
                    if (s == null) {
                        table.append(String.format(Locale.ROOT, "| %s | %d x %d | %.1f | %s | %.0f%% | none | | | |%n",
                                map, accounts, regions, wall, equal ? "yes" : "NO", share * 100));
                        continue;
                    }
                    double left = wall - s.at();
                    table.append(String.format(Locale.ROOT, "| %s | %d x %d | %.1f | %s | %.0f%% | at %.1f s: %d/%d jobs, %d%% "
                                    + "| %s | %.1f | %s |%n", map, accounts, regions, wall, equal ? "yes" : "NO", share * 100,
                            s.at(), s.done(), s.total(), s.percent(), Double.isNaN(s.eta()) ? "--:--"
                                    : String.format(Locale.ROOT, "%.0f", s.eta()), left, Double.isNaN(s.eta()) ? "-"
                                    : String.format(Locale.ROOT, "%+.0f%%", 100 * (s.eta() - left) / left)));
                }
            }
        } finally {
            try (var walk = Files.walk(work)) {
                for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
        System.out.println(table);
        System.exit(0);
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
