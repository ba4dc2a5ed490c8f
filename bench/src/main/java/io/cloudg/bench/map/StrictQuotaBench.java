package io.cloudg.bench.map;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.estate.Truth;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.GcpSpec;
import io.cloudg.sim.config.Match;
import io.cloudg.sim.config.NeighbourSpec;
import io.cloudg.sim.config.Realism;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.core.AwsType;
import io.cloudg.sim.quota.BucketStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * cloudg against cloud-sim's {@code strict} profile (the providers' documented quotas and fixed windows, no retry
 * hints AWS does not send), governed and with {@code ratelimit.enabled:
 * false} (the SDKs' own retries only), side by side in one JVM: each round maps every scenario with both
 * contenders, the contender that goes first alternating from round to round, so that the machine's other
 * load falls on both alike; the table reports every run and the per-round ratios governed / SDK only.
 *
 * <ul>
 *   <li>{@code ami-fanout}: one account and region, 1,000 AMIs: one DescribeImageAttribute per AMI against
 *       EC2's documented bucket (100, 20/s), no Retry-After on its throttles;</li>
 *   <li>{@code org}: a whole-organization AWS map (20 accounts x 3 regions, 3 resources of every type, 300
 *       AMIs per account x region), and the same with a noisy neighbour taking half of every EC2 bucket's
 *       refill and bursting (strict's default: half the bucket, every 30 s on average);</li>
 *   <li>{@code gcp}: a GCP organization of 200 projects (Cloud Asset's per-minute windows per consumer
 *       project and per organization, RESOURCE_EXHAUSTED without RetryInfo).</li>
 * </ul>
 *
 * The quota bound of a run is what the busiest sim bucket allowed at best: the calls it admitted plus what
 * the neighbour took, beyond its burst (a window's calls), over its rate. For a fixed window that is the
 * bound of a client that knows when the provider's windows start; the phase-blind bound is that of one that
 * does not (Cloud Asset never says), which must keep any stretch of one window's length within one window's
 * calls: every window's calls after the first take a whole window. A map is correct when
 * {@link Truth#check} finds every stable asset and nothing that never existed (strict churns 2% of the
 * estate in and out during the first two minutes).
 *
 * <p>Usage: {@code StrictQuotaBench [rounds] [scenario,...]}, scenarios {@code ami-fanout}, {@code ami-neighbour}
 * (the fan-out with the neighbour of {@code org-neighbour}; not in the default set), {@code org},
 * {@code org-neighbour}, {@code gcp} (default: all, 3 rounds); {@code -Dcloudg.bench.contenders=governed} (or
 * {@code sdk}) runs one contender only, to compare two builds of the governor run after run.
 */
public final class StrictQuotaBench {
    private StrictQuotaBench() {
    }

    /** One scenario: an estate and the configuration that maps it. */
    record Scenario(String name, EstateSpec estate, Function<CloudSim, CloudGConfig.Builder> config, String provider) {
    }

    record Run(String scenario, boolean governed, double seconds, long calls, long throttled, double bound,
               double blindBound, String busiest, long notSuccess, int missingStable, int neverExisted, long assets) {
        double throttledShare() {
            return (double) throttled / Math.max(1, calls);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        Set<String> which = args.length > 1 ? Set.of(args[1].split(","))
                : Set.of("ami-fanout", "org", "org-neighbour", "gcp");
        // -Dcloudg.bench.contenders=governed maps with the governor only (an A/B of two governor builds)
        Set<String> contenders = Set.of(System.getProperty("cloudg.bench.contenders", "governed,sdk").split(","));
        List<Scenario> scenarios = new ArrayList<>();
        for (Scenario s : scenarios()) {
            if (which.contains(s.name())) {
                scenarios.add(s);
            }
        }
        // warm-up (class loading, JIT): the first map in a JVM runs several times slower than the next
        for (Scenario s : scenarios) {
            if (!s.name().equals("gcp")) {
                map(s, contenders.contains("sdk") ? RateLimitConfig.builder().enabled(false).build() : governedConfig());
                break;
            }
        }
        List<Run> runs = new ArrayList<>();
        System.out.println("| round | scenario | mode | elapsed (s) | quota bound (s) | elapsed / bound"
                + " | phase-blind bound (s) | sim calls | throttled answers | throttled / calls | entries not SUCCESS"
                + " | stable assets missing | assets that never existed | assets |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (int round = 1; round <= rounds; round++) {
            for (Scenario s : scenarios) {
                boolean governedFirst = round % 2 == 1;
                for (boolean governed : new boolean[] {governedFirst, !governedFirst}) {
                    if (!contenders.contains(governed ? "governed" : "sdk")) {
                        continue;
                    }
                    RateLimitConfig rl = governed ? governedConfig()
                            : RateLimitConfig.builder().enabled(false).build();
                    Run r = map(s, rl);
                    runs.add(r);
                    System.out.printf(Locale.ROOT, "| %d | %s | %s | %.1f | %.1f (%s) | %.2f | %.1f | %d | %d | %.2f%% | %d | %d | %d | %d |%n",
                            round, s.name(), governed ? "governed" : "ratelimit.enabled: false", r.seconds(), r.bound(),
                            r.busiest(), r.seconds() / Math.max(0.001, r.bound()), r.blindBound(), r.calls(), r.throttled(),
                            100 * r.throttledShare(), r.notSuccess(), r.missingStable(), r.neverExisted(), r.assets());
                }
            }
        }
        System.out.println();
        System.out.println("| scenario | governed elapsed / SDK-only elapsed, per round | median | governed throttled / calls (median) | SDK only throttled / calls (median) | governed elapsed / bound (median) | governed elapsed / phase-blind bound (median) |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Scenario s : scenarios) {
            List<Run> g = runs.stream().filter(r -> r.scenario().equals(s.name()) && r.governed()).toList();
            List<Run> u = runs.stream().filter(r -> r.scenario().equals(s.name()) && !r.governed()).toList();
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < Math.min(g.size(), u.size()); i++) {
                ratios.add(g.get(i).seconds() / u.get(i).seconds());
            }
            System.out.printf(Locale.ROOT, "| %s | %s | %.2f | %.2f%% | %.2f%% | %.2f | %.2f |%n", s.name(),
                    ratios.stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).collect(Collectors.joining(", ")),
                    median(ratios), 100 * median(g.stream().map(Run::throttledShare).toList()),
                    100 * median(u.stream().map(Run::throttledShare).toList()),
                    median(g.stream().map(r -> r.seconds() / Math.max(0.001, r.bound())).toList()),
                    median(g.stream().map(r -> r.seconds() / Math.max(0.001, r.blindBound())).toList()));
        }
        System.exit(0);
    }

    /**
     * What the busiest sim bucket allowed at best: the calls it gave out (ours and a neighbour's, share and
     * bursts) beyond its burst (a window's calls), over its rate; and for fixed windows, the bound of a client
     * blind to the windows' phase, which takes a whole window for each window's calls after the first.
     */
    record Bounds(double seconds, double phaseBlindSeconds, String busiest) {
        static Bounds of(SimStats stats) {
            double bound = 0;
            double blind = 0;
            String busiest = "-";
            for (BucketStats b : stats.buckets()) {
                double total = b.admitted() + b.neighbourTokens();
                double need = Math.max(0, total - b.burst()) / b.rate();
                double needBlind = b.windowSeconds() > 0
                        ? Math.max(0, Math.ceil(total / b.burst()) - 1) * b.windowSeconds() : need;
                if (need > bound) {
                    bound = need;
                    busiest = b.key();
                }
                blind = Math.max(blind, needBlind);
            }
            return new Bounds(bound, blind, busiest);
        }
    }

    /** Coverage entries that are not SUCCESS. */
    static long notSuccess(InventoryResult r) {
        return r.summary().services().entrySet().stream()
                .filter(e -> e.getKey() != CoverageStatus.SUCCESS).mapToLong(Map.Entry::getValue).sum();
    }

    /** The governed contender: the defaults (an experiment may set {@code cloudg.bench.governed} to a YAML file). */
    static RateLimitConfig governedConfig() throws java.io.IOException {
        String file = System.getProperty("cloudg.bench.governed");
        return file == null ? RateLimitConfig.defaults() : RateLimitConfig.fromYaml(Files.readString(Path.of(file)));
    }

    static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        if (s.isEmpty()) {
            return Double.NaN;
        }
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static List<Scenario> scenarios() {
        EstateSpec ami = strict(EstateSpec.generated(1, List.of("us-east-1"), Map.of(AwsType.EC2_IMAGE, 1000)));
        List<String> regions = List.of("us-east-1", "eu-west-1", "us-west-2");
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        for (AwsType t : AwsType.values()) {
            if (t.countable()) {
                counts.put(t, 3);
            }
        }
        counts.put(AwsType.EC2_IMAGE, 300);
        EstateSpec org = strict(EstateSpec.generated(20, regions, counts));
        EstateSpec shared = org.withNeighbours(List.of(new NeighbourSpec(new Match(Provider.AWS, null, null, "ec2", null), 0.5)));
        EstateSpec small = EstateSpec.defaultEstate();
        EstateSpec gcp = strict(small.withGcp(new GcpSpec(null, 200, small.gcp().locations(), small.gcp().counts())));
        return List.of(
                new Scenario("ami-fanout", ami, sim -> aws(sim, List.of("us-east-1"), List.of("amis"), false), "aws"),
                new Scenario("ami-neighbour", ami.withNeighbours(List.of(new NeighbourSpec(
                        new Match(Provider.AWS, null, null, "ec2", null), 0.5))),
                        sim -> aws(sim, List.of("us-east-1"), List.of("amis"), false), "aws"),
                new Scenario("org", org, sim -> aws(sim, regions, List.of(), true), "aws"),
                new Scenario("org-neighbour", shared, sim -> aws(sim, regions, List.of(), true), "aws"),
                new Scenario("gcp", gcp, sim -> CloudGConfig.builder().providers("gcp")
                        .gcp(g -> g.withEndpoint(sim.gcpTarget()).withOrganization(sim.estate().gcp().organization())),
                        "gcp"));
    }

    static EstateSpec strict(EstateSpec e) {
        return e.withRealism(Realism.STRICT);
    }

    static CloudGConfig.Builder aws(CloudSim sim, List<String> regions, List<String> collectors, boolean org) {
        return CloudGConfig.builder().providers("aws")
                .aws(a -> a.withEndpoint(sim.awsEndpoint()).withOrg(org).withRegions(regions)
                        .withCollectors(collectors, List.of()).withSweeps(collectors.isEmpty(), collectors.isEmpty())
                        .withCredentials(sim.managementCredentials().accessKeyId(),
                                sim.managementCredentials().secretAccessKey()));
    }

    static Run map(Scenario s, RateLimitConfig ratelimit) throws Exception {
        Path out = Files.createTempDirectory("cloudg-bench");
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(s.estate()).build())) {
            CloudGConfig config = s.config().apply(sim).outputDir(out)
                    .jobConcurrency(Integer.getInteger("cloudg.workers", 64)).ratelimit(ratelimit).build();
            Governor governor = Governor.builder().config(ratelimit).build();
            long t0 = System.nanoTime();
            InventoryResult r = new InventoryMapper(config, governor).mapInventory();
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (Boolean.getBoolean("cloudg.bench.verbose") && r.throttling() != null) {
                System.err.println(s.name() + (ratelimit.enabled("aws") ? " governed" : " sdk-only") + ": "
                        + String.join("\n  ", r.throttling().messages()) + "\n slowed: " + r.throttling().slowedBuckets());
            }
            if (Boolean.getBoolean("cloudg.bench.verbose")) {
                r.coverage().forEach(c -> c.services().stream().filter(v -> v.status() != CoverageStatus.SUCCESS)
                        .forEach(v -> System.err.println("not SUCCESS: " + c.accountId() + " " + c.region() + " "
                                + v.service() + " " + v.status() + ": " + v.error())));
            }
            SimStats stats = sim.stats();
            Bounds bounds = Bounds.of(stats);
            long incomplete = notSuccess(r);
            Set<String> mapped;
            try (Stream<io.cloudg.inventory.Asset> assets = r.assets()) {
                mapped = assets.map(a -> a.accountId() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                        .collect(Collectors.toCollection(TreeSet::new));
            }
            Truth.Check check = sim.truth().check(mapped, a -> a.provider().equals(s.provider())
                            && (!s.name().startsWith("ami-") || a.type().equals("AWS::EC2::Image")),
                    a -> a.account() + "|" + a.region() + "|" + a.type() + "|" + a.id());
            r.discardSpool();
            governor.close();
            return new Run(s.name(), ratelimit.enabled("aws") && ratelimit.enabled("gcp"), seconds,
                    stats.totals().calls(), stats.totals().throttled(), bounds.seconds(), bounds.phaseBlindSeconds(),
                    bounds.busiest(), incomplete,
                    check.missingStable().size(), check.neverExisted().size(), mapped.size());
        }
    }
}
