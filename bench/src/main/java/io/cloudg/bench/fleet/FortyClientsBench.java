package io.cloudg.bench.fleet;

import io.cloudg.aws.AccountClient;
import io.cloudg.aws.AwsAccount;
import io.cloudg.aws.AwsClients;
import io.cloudg.config.AwsSettings;
import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.quota.BucketStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeImageAttributeRequest;

/**
 * The guide's own problem as it is written: forty threads, each with its own EC2 client, in one account and
 * region, all calling one EC2 action (DescribeImageAttribute, one per AMI), against cloud-sim's strict profile
 * (EC2's documented bucket of 100 refilled at 20/s, no Retry-After on throttles). Two contenders, each on a fresh
 * simulator (same seed), their order alternating by round:
 * <ul>
 *   <li>{@code sdk}: forty {@code Ec2Client}s with the AWS SDK alone, adaptive retry mode with cloudg's {@code
 *       aws.max_retries} + 1 attempts: each client backs off on its own;</li>
 *   <li>{@code governed}: forty of cloudg's {@link AwsClients} (each its own SDK client and connection pool, adaptive
 *       mode with the same attempts) on one process-wide {@link Governor} with the default configuration: one
 *       leaf bucket for the account's action, whoever calls.</li>
 * </ul>
 * Reported: the wall time, the sim's calls and throttled answers, calls given up (the SDK's last answer was a
 * throttle), calls an open breaker rejected, the quota bound ({@code (calls admitted - burst) / rate}), and how long
 * the account's bucket stayed empty (the sim's {@code emptySeconds}, and its longest unbroken stretch), also as a
 * share of the wall time (the threads start together once every client is built).
 *
 * <pre>
 * java -cp "bench/target/benchmarks.jar:bench/target/lib/*" io.cloudg.bench.fleet.FortyClientsBench
 *     [--threads 40] [--calls 25 (each thread's)] [--rounds 2] [--latency-ms 20] [--jitter-ms 20] [--seed 7]
 * </pre>
 */
public final class FortyClientsBench {
    private FortyClientsBench() {
    }

    /** One round of one contender. */
    record Run(String contender, int round, double wallSeconds, long calls, long throttled,
               long gaveUp, long rejected, long failed, BucketStats bucket) {
        double boundSeconds() {
            return Math.max(0, (bucket.admitted() - bucket.burst()) / bucket.rate());
        }
    }

    public static void main(String[] args) throws Exception {
        int threads = 40;
        int calls = 25;
        int rounds = 2;
        int latency = 20;
        int jitter = 20;
        long seed = 7;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--threads" -> threads = SharedQuotaBench.positive(v, "--threads");
                case "--calls" -> calls = SharedQuotaBench.positive(v, "--calls");
                case "--rounds" -> rounds = SharedQuotaBench.positive(v, "--rounds");
                case "--latency-ms" -> latency = SharedQuotaBench.nonNegative(v, "--latency-ms");
                case "--jitter-ms" -> jitter = SharedQuotaBench.nonNegative(v, "--jitter-ms");
                case "--seed" -> seed = Long.parseLong(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String estateYaml = String.join("\n", "seed: " + seed, "realism: strict", "aws:", "  accounts: 1",
                "  regions: [us-east-1]", "  resources: {AWS::EC2::Image: " + threads * calls + "}",
                "latency: {base: " + latency + "ms, jitter: " + jitter + "ms}",
                "churn: {created: 0, deleted: 0}   # every AMI called stays", "");
        EstateSpec estate = EstateSpec.fromYaml(estateYaml);
        System.out.printf(Locale.ROOT, "estate:%n%s%n%d threads x %d DescribeImageAttribute calls, one account x region%n%n",
                estateYaml, threads, calls);
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> order = round % 2 == 1 ? List.of("sdk", "governed") : List.of("governed", "sdk");
            for (String contender : order) {
                Run r = run(contender, round, estate, seed, threads, calls);
                runs.add(r);
                System.err.printf(Locale.ROOT, "round %d, %s: %.1f s, %d calls, %d throttled, bucket empty %.1f s (load %s)%n",
                        round, contender, r.wallSeconds(), r.calls(), r.throttled(), r.bucket().emptySeconds(),
                        SharedQuotaBench.loadAverage());
            }
        }
        System.out.println("| round | contender | wall (s) | quota bound (s) | wall / bound | sim calls | throttled answers"
                + " | calls given up | rejected (breaker) | other failures | bucket empty (s) | of the wall"
                + " | longest empty stretch (s) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Run r : runs) {
            System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.2fx | %d | %d | %d | %d | %d | %.1f | %.0f%% | %.3f |%n",
                    r.round(), r.contender().equals("sdk") ? "SDK alone (adaptive), " + threads + " clients"
                            : "governed, " + threads + " clients, one governor",
                    r.wallSeconds(), r.boundSeconds(), r.wallSeconds() / Math.max(0.001, r.boundSeconds()), r.calls(), r.throttled(),
                    r.gaveUp(), r.rejected(), r.failed(), r.bucket().emptySeconds(),
                    100 * r.bucket().emptySeconds() / Math.max(0.001, r.wallSeconds()), r.bucket().longestEmptySeconds());
        }
    }

    static Run run(String contender, int round, EstateSpec estate, long seed, int threads, int calls) throws Exception {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).seed(seed).estate(estate).build())) {
            String account = sim.estate().aws().management().id();
            List<String> images = sim.truth().assets().stream().filter(a -> a.type().equals("AWS::EC2::Image"))
                    .map(Asset::id).sorted().toList();
            if (images.size() < threads * calls) {
                throw new IllegalStateException("the estate has " + images.size() + " AMIs, " + threads * calls + " needed");
            }
            String ak = sim.managementCredentials().accessKeyId();
            String sk = sim.managementCredentials().secretAccessKey();
            int attempts = AwsSettings.DEFAULTS.maxRetries() + 1;
            Governor governor = contender.equals("governed") ? Governor.builder().config(RateLimitConfig.defaults()).build() : null;
            // each thread's own client: how it makes a call for an AMI
            List<AutoCloseable> closers = new ArrayList<>();
            List<Function<String, Object>> callers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                if (governor == null) {
                    Ec2Client ec2 = Ec2Client.builder().region(Region.US_EAST_1).endpointOverride(sim.awsEndpoint())
                            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ak, sk)))
                            .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.adaptiveRetryStrategy().toBuilder()
                                    .maxAttempts(attempts).build()))
                            .build();
                    closers.add(ec2);
                    callers.add(id -> ec2.describeImageAttribute(r -> r.imageId(id).attribute("launchPermission")));
                } else {
                    AwsClients clients = new AwsClients(AwsSettings.DEFAULTS.withEndpoint(sim.awsEndpoint())
                            .withRegions(List.of("us-east-1")).withCredentials(ak, sk), governor, 8);
                    closers.add(clients);
                    AccountClient<Ec2Client> ec2 = clients.client(Ec2Client.class, new AwsAccount(account, "management",
                            StaticCredentialsProvider.create(AwsBasicCredentials.create(ak, sk)), true), "us-east-1");
                    callers.add(id -> ec2.client().describeImageAttribute(ec2.as(DescribeImageAttributeRequest.builder()
                            .imageId(id).attribute("launchPermission").build())));
                }
            }
            LongAdder gaveUp = new LongAdder();
            LongAdder rejected = new LongAdder();
            LongAdder failed = new LongAdder();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < calls; i++) {
                        try {
                            callers.get(me).apply(images.get(me * calls + i));
                        } catch (AwsServiceException e) {
                            if (e.isThrottlingException()) {
                                gaveUp.increment();
                            } else {
                                failed.increment();
                                System.err.println("failed: " + e);
                            }
                        } catch (RuntimeException e) {
                            if (e instanceof CircuitOpenException || e.getCause() instanceof CircuitOpenException) {
                                rejected.increment();
                            } else {
                                failed.increment();
                                System.err.println("failed: " + e);
                            }
                        }
                    }
                }, "client-" + t);
                thread.start();
                running.add(thread);
            }
            long t0 = System.nanoTime();
            start.countDown();
            for (Thread thread : running) {
                thread.join();
            }
            long end = System.nanoTime();
            for (AutoCloseable c : closers) {
                c.close();
            }
            if (governor != null) {
                governor.close();
            }
            SimStats stats = sim.stats();
            String key = "aws/" + account + "/us-east-1/ec2/DescribeImageAttribute";
            BucketStats bucket = stats.bucket(key);
            if (bucket == null) {
                throw new IllegalStateException("no sim bucket " + key + " among " + stats.buckets().stream().map(BucketStats::key).toList());
            }
            return new Run(contender, round, (end - t0) / 1e9, stats.totals().calls(), stats.totals().throttled(),
                    gaveUp.sum(), rejected.sum(), failed.sum(), bucket);
        }
    }
}
