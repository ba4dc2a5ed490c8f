package io.cloudg.bench.map;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.AwsType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * End-to-end map benchmarks against cloud-sim with the real AWS SDK: how close to the bound the providers' quotas
 * set a governed map gets, and what it saves over the SDKs' own retries:
 * <ul>
 *   <li>{@code ami-fanout}: one region, N AMIs (default 1,000), one DescribeImageAttribute per AMI against the
 *       sim's EC2 quota (bucket 100, 20/s): elapsed next to the bound the quota sets.</li>
 *   <li>{@code org-map}: a generated organization mapped twice in one run, governed and with
 *       {@code ratelimit.enabled: false} (SDK retries only): elapsed, the quota lower bound (the busiest sim
 *       bucket's admitted calls beyond its burst, divided by its rate), throttled answers / calls.</li>
 * </ul>
 * Usage: {@code MapBenchmarks ami-fanout [amis]} or
 * {@code MapBenchmarks org-map [accounts] [regions] [perType] [amisPerRegion]} (AMIs make the EC2
 * DescribeImageAttribute fan-out the busiest quota, as it is in AMI-heavy estates). The sim runs the
 * {@code strict} profile (the providers' documented quotas and windows; BENCHMARKS.md, "Strict profile") unless
 * {@code -Dcloudg.bench.realism=lenient} (the profile of the oldest figures, kept to compare with them);
 * {@link StrictQuotaBench} is the side-by-side comparison on strict.
 */
public final class MapBenchmarks {
    private MapBenchmarks() {
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "ami-fanout";
        switch (which) {
            case "ami-fanout" -> amiFanOut(args.length > 1 ? Integer.parseInt(args[1]) : 1000,
                    args.length > 2 ? Integer.parseInt(args[2]) : 0);
            case "org-map" -> orgMap(args.length > 1 ? Integer.parseInt(args[1]) : 20,
                    args.length > 2 ? Integer.parseInt(args[2]) : 3, args.length > 3 ? Integer.parseInt(args[3]) : 3,
                    args.length > 4 ? Integer.parseInt(args[4]) : 300);
            default -> {
                System.err.println("usage: MapBenchmarks ami-fanout [amis] [latency-ms] | org-map [accounts] [regions] [perType] [amis]");
                System.exit(2);
            }
        }
        System.exit(0);
    }

    record Outcome(double seconds, long assets, long calls, long throttled, double lowerBoundSeconds, String busiest,
                   long partialOrFailed) {
    }

    /** The profile the sim runs: {@code -Dcloudg.bench.realism}, strict by default. */
    static EstateSpec profile(EstateSpec e) {
        return e.withRealism(io.cloudg.sim.config.Realism.valueOf(
                System.getProperty("cloudg.bench.realism", "strict").toUpperCase(Locale.ROOT)));
    }

    static Outcome map(EstateSpec estate, List<String> regions, List<String> collectors, boolean org,
                       RateLimitConfig ratelimit) throws Exception {
        Path out = Files.createTempDirectory("cloudg-bench");
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
            CloudGConfig config = CloudGConfig.builder().providers("aws").outputDir(out).jobConcurrency(Integer.getInteger("cloudg.workers", 64)).ratelimit(ratelimit)
                    .aws(a -> a.withEndpoint(sim.awsEndpoint()).withOrg(org).withRegions(regions)
                            .withCollectors(collectors, List.of()).withSweeps(collectors.isEmpty(), collectors.isEmpty())
                            .withRetryMode(System.getProperty("cloudg.aws.retryMode", "adaptive"))
                            .withDetail(io.cloudg.config.AwsSettings.Detail.valueOf(
                                    System.getProperty("cloudg.aws.detail", "full").toUpperCase(Locale.ROOT)))
                            .withCredentials(sim.managementCredentials().accessKeyId(),
                                    sim.managementCredentials().secretAccessKey()))
                    .build();
            Governor governor = Governor.builder().config(ratelimit).build();
            long t0 = System.nanoTime();
            InventoryResult r = new InventoryMapper(config, governor).mapInventory();
            double seconds = (System.nanoTime() - t0) / 1e9;
            SimStats stats = sim.stats();
            StrictQuotaBench.Bounds bounds = StrictQuotaBench.Bounds.of(stats);
            long incomplete = StrictQuotaBench.notSuccess(r);
            r.discardSpool();
            return new Outcome(seconds, r.assetCount(), stats.totals().calls(), stats.totals().throttled(),
                    bounds.seconds(), bounds.busiest(), incomplete);
        }
    }

    /** {@code latencyMs}: the sim answers each call after that long plus up to half of it again (0: at once). */
    static void amiFanOut(int amis, int latencyMs) throws Exception {
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        counts.put(AwsType.EC2_IMAGE, amis);
        EstateSpec estate = profile(EstateSpec.generated(1, List.of("us-east-1"), counts));
        if (latencyMs > 0) {
            estate = estate.withLatency(new io.cloudg.sim.config.LatencySpec(java.time.Duration.ofMillis(latencyMs),
                    java.time.Duration.ofMillis(latencyMs / 2)));
        }
        Outcome o = map(estate, List.of("us-east-1"), List.of("amis"), false, RateLimitConfig.defaults());
        System.out.println("| scenario | AMIs | elapsed (s) | quota bound (s) | elapsed / bound | sim calls | throttled answers | entries not SUCCESS |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| DescribeImageAttribute fan-out, 20 rps sim quota, %d ms (+%d) latency | %d | %.1f | %.1f (%s) | %.2f | %d | %d | %d |%n",
                latencyMs, latencyMs / 2, amis, o.seconds(), o.lowerBoundSeconds(), o.busiest(), o.seconds() / o.lowerBoundSeconds(), o.calls(),
                o.throttled(), o.partialOrFailed());
    }

    static void orgMap(int accounts, int regions, int perType, int amis) throws Exception {
        List<String> regionList = List.of("us-east-1", "eu-west-1", "us-west-2", "ap-southeast-1", "eu-central-1",
                "us-east-2").subList(0, Math.min(6, regions));
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        for (AwsType t : AwsType.values()) {
            if (t.countable()) {
                counts.put(t, perType);
            }
        }
        counts.put(AwsType.EC2_IMAGE, amis);
        EstateSpec estate = profile(EstateSpec.generated(accounts, regionList, counts));
        // warm-up (class loading, JIT): the first map in a JVM runs several times slower than the next, so
        // both measured runs come after a full-size one that is not reported
        map(estate, regionList, List.of(), true, RateLimitConfig.builder().enabled(false).build());
        System.out.println("| mode | accounts x regions | assets | elapsed (s) | quota lower bound (s) | elapsed / bound | sim calls | throttled answers | throttled / calls | entries not SUCCESS |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        // a second pair with a noisy neighbour taking half of every EC2 bucket's refill: the pipelines and
        // people who share a quota with cloudg in a real estate
        EstateSpec shared = estate.withNeighbours(List.of(new io.cloudg.sim.config.NeighbourSpec(
                new io.cloudg.sim.config.Match(io.cloudg.sim.core.Provider.AWS, null, null, "ec2", null), 0.5)));
        for (EstateSpec e : List.of(estate, shared)) {
            for (boolean governed : new boolean[] {true, false}) {
                RateLimitConfig rl = governed ? RateLimitConfig.defaults() : RateLimitConfig.builder().enabled(false).build();
                Outcome o = map(e, regionList, List.of(), true, rl);
                System.out.printf(Locale.ROOT, "| %s%s | %d x %d | %d | %.1f | %.1f | %.2f | %d | %d | %.2f%% | %d |%n",
                        governed ? "governed (defaults)" : "ratelimit.enabled: false (SDK retries only)",
                        e == shared ? ", EC2 quota half taken by a neighbour" : "", accounts, regionList.size(), o.assets(),
                        o.seconds(), o.lowerBoundSeconds(), o.seconds() / Math.max(0.001, o.lowerBoundSeconds()),
                        o.calls(), o.throttled(), 100.0 * o.throttled() / Math.max(1, o.calls()), o.partialOrFailed());
            }
        }
    }
}
