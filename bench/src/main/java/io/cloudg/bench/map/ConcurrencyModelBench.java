package io.cloudg.bench.map;

import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.ec2.Ec2AsyncClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.iam.IamAsyncClient;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.lambda.LambdaAsyncClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Issue 37's design measurement: how a process keeps ~1,000 AWS calls in flight at real latency, and what each
 * call costs it in CPU. cloud-sim (quotas off, a fixed latency per answer) serves one account x region; a child
 * JVM per model (the launcher's JIT and collector options for {@code map}) keeps {@code --in-flight} calls going
 * on one listing mix (EC2 DescribeVpcs / Subnets / SecurityGroups / Instances, IAM ListRoles, Lambda
 * ListFunctions, DynamoDB ListTables, SQS ListQueues: the EC2 query, awsQuery, REST-JSON and JSON protocols),
 * warms up, then counts the calls answered and its own process CPU over the measured window:
 * <ul>
 *   <li>{@code virtual}: the SDK's sync clients on one Apache connection pool, one virtual thread per call
 *       in flight, each making call after call (what cloudg's collectors would become: sequential code);</li>
 *   <li>{@code async}: the SDK's {@code *AsyncClient}s on one Netty client, each of {@code --in-flight} lanes
 *       chaining its next call on the previous one's completion;</li>
 *   <li>{@code platform}: the sync clients on as many platform threads (today's model, with a pool as large
 *       as the calls in flight).</li>
 * </ul>
 * The models alternate in rounds, so that a loaded machine hurts them alike; the table gives each round.
 *
 * <p>Usage (JDK 21+): {@code ConcurrencyModelBench [--in-flight 1000] [--latency-ms 100] [--warm-up 10]
 * [--seconds 20] [--rounds 2] [--models virtual,async,platform]}
 */
public final class ConcurrencyModelBench {
    private ConcurrencyModelBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(args);
            return;
        }
        int inFlight = 1000;
        int latencyMs = 100;
        int warmUp = 10;
        int seconds = 20;
        int rounds = 2;
        List<String> models = List.of("virtual", "async", "platform");
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--in-flight" -> inFlight = positive(v, args[i++]);
                case "--latency-ms" -> latencyMs = positive(v, args[i++]);
                case "--warm-up" -> warmUp = positive(v, args[i++]);
                case "--seconds" -> seconds = positive(v, args[i++]);
                case "--rounds" -> rounds = positive(v, args[i++]);
                case "--models" -> {
                    models = List.of(String.valueOf(v).split(","));
                    for (String m : models) {
                        if (!List.of("virtual", "async", "platform").contains(m)) {
                            throw new IllegalArgumentException("--models must list virtual, async, platform, but had " + m);
                        }
                    }
                    i++;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        EstateSpec estate = EstateSpec.fromYaml("""
                seed: 7
                aws: {accounts: 1, regions: [us-east-1]}
                quotas: {enabled: false}
                latency: {base: %dms}
                """.formatted(latencyMs));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Map<String, List<String>> rows = new LinkedHashMap<>();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
            for (int r = 1; r <= rounds; r++) {
                for (String model : models) {
                    Path out = Files.createTempFile("cloudg-concurrency-" + model, ".txt");
                    List<String> command = new ArrayList<>(List.of(java));
                    command.addAll(SdkFloorBench.LAUNCHER_MAP_JVM);
                    command.addAll(List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
                            "-cp", cp, ConcurrencyModelBench.class.getName(), "--child", model,
                            sim.awsEndpoint().toString(), sim.managementCredentials().accessKeyId(),
                            sim.managementCredentials().secretAccessKey(), Integer.toString(inFlight),
                            Integer.toString(warmUp), Integer.toString(seconds), out.toString()));
                    int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
                    String line = Files.readString(out).trim();
                    Files.deleteIfExists(out);
                    if (exit != 0 || line.isEmpty()) {
                        throw new IllegalStateException("the " + model + " child failed (exit " + exit + ")");
                    }
                    rows.computeIfAbsent(model, k -> new ArrayList<>()).add(line);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d calls in flight, %d ms a call, %ds measured after %ds, JDK %s, %d cores%n",
                inFlight, latencyMs, seconds, warmUp, Runtime.version(), Runtime.getRuntime().availableProcessors());
        System.out.println("| model | round | calls/s | CPU ms a call | errors | threads | peak RSS MiB |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Map.Entry<String, List<String>> e : rows.entrySet()) {
            for (int r = 0; r < e.getValue().size(); r++) {
                System.out.println("| " + e.getKey() + " | " + (r + 1) + " | " + e.getValue().get(r) + " |");
            }
        }
    }

    /** One call of the mix: its sync and its async form. */
    private record Op(String name, Runnable sync, Supplier<CompletableFuture<?>> async) {
    }

    private static void child(String[] args) throws Exception {
        String model = args[1];
        URI endpoint = URI.create(args[2]);
        StaticCredentialsProvider creds = StaticCredentialsProvider.create(AwsBasicCredentials.create(args[3], args[4]));
        int inFlight = Integer.parseInt(args[5]);
        int warmUp = Integer.parseInt(args[6]);
        int seconds = Integer.parseInt(args[7]);
        Path out = Path.of(args[8]);
        SdkHttpClient apache = null;
        SdkAsyncHttpClient netty = null;
        List<SdkClient> clients = new ArrayList<>();
        List<Op> ops = new ArrayList<>();
        if (model.equals("async")) {
            netty = NettyNioAsyncHttpClient.builder().maxConcurrency(inFlight + 64).maxPendingConnectionAcquires(100_000)
                    .connectionAcquisitionTimeout(Duration.ofSeconds(60)).build();
            Ec2AsyncClient ec2 = configure(Ec2AsyncClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(netty).build();
            IamAsyncClient iam = configure(IamAsyncClient.builder(), endpoint, creds, Region.AWS_GLOBAL).httpClient(netty).build();
            LambdaAsyncClient lambda = configure(LambdaAsyncClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(netty).build();
            DynamoDbAsyncClient ddb = configure(DynamoDbAsyncClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(netty).build();
            SqsAsyncClient sqs = configure(SqsAsyncClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(netty).build();
            clients.addAll(List.of(ec2, iam, lambda, ddb, sqs));
            ops.add(new Op("DescribeVpcs", null, () -> ec2.describeVpcs()));
            ops.add(new Op("DescribeSubnets", null, () -> ec2.describeSubnets()));
            ops.add(new Op("DescribeSecurityGroups", null, () -> ec2.describeSecurityGroups()));
            ops.add(new Op("DescribeInstances", null, () -> ec2.describeInstances()));
            ops.add(new Op("ListRoles", null, () -> iam.listRoles()));
            ops.add(new Op("ListFunctions", null, () -> lambda.listFunctions()));
            ops.add(new Op("ListTables", null, () -> ddb.listTables()));
            ops.add(new Op("ListQueues", null, () -> sqs.listQueues()));
        } else {
            apache = ApacheHttpClient.builder().maxConnections(inFlight + 64).connectionTimeout(Duration.ofSeconds(10))
                    .socketTimeout(Duration.ofSeconds(60)).build();
            Ec2Client ec2 = configure(Ec2Client.builder(), endpoint, creds, Region.US_EAST_1).httpClient(apache).build();
            IamClient iam = configure(IamClient.builder(), endpoint, creds, Region.AWS_GLOBAL).httpClient(apache).build();
            LambdaClient lambda = configure(LambdaClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(apache).build();
            DynamoDbClient ddb = configure(DynamoDbClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(apache).build();
            SqsClient sqs = configure(SqsClient.builder(), endpoint, creds, Region.US_EAST_1).httpClient(apache).build();
            clients.addAll(List.of(ec2, iam, lambda, ddb, sqs));
            ops.add(new Op("DescribeVpcs", () -> ec2.describeVpcs(), null));
            ops.add(new Op("DescribeSubnets", () -> ec2.describeSubnets(), null));
            ops.add(new Op("DescribeSecurityGroups", () -> ec2.describeSecurityGroups(), null));
            ops.add(new Op("DescribeInstances", () -> ec2.describeInstances(), null));
            ops.add(new Op("ListRoles", () -> iam.listRoles(), null));
            ops.add(new Op("ListFunctions", () -> lambda.listFunctions(), null));
            ops.add(new Op("ListTables", () -> ddb.listTables(), null));
            ops.add(new Op("ListQueues", () -> sqs.listQueues(), null));
        }
        LongAdder calls = new LongAdder();
        LongAdder errors = new LongAdder();
        Map<String, String> firstError = new java.util.concurrent.ConcurrentHashMap<>();
                ExecutorService lanes = switch (model) {
            case "virtual" -> Executors.newVirtualThreadPerTaskExecutor();
            case "platform" -> Executors.newFixedThreadPool(inFlight);
            default -> null;
        };
        for (int lane = 0; lane < inFlight; lane++) {
            int start = lane;
            if (lanes != null) {
                lanes.execute(() -> {
                    for (int i = start; !stop; i++) {
                        Op op = ops.get(i % ops.size());
                        try {
                            op.sync().run();
                            calls.increment();
                        } catch (RuntimeException e) {
                            errors.increment();
                            firstError.putIfAbsent(op.name(), e.toString());
                        }
                    }
                });
            } else {
                chain(ops, start, calls, errors, firstError);
            }
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Thread.sleep(warmUp * 1000L);
        long c0 = calls.sum();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long c1 = calls.sum();
        long cpu1 = os.getProcessCpuTime();
        long t1 = System.nanoTime();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        stop = true;
        double perSecond = (c1 - c0) / ((t1 - t0) / 1e9);
        double cpuMs = (cpu1 - cpu0) / 1e6 / Math.max(1, c1 - c0);
        String line = String.format(Locale.ROOT, "%.0f | %.3f | %d | %d | %d", perSecond, cpuMs, errors.sum(), threads,
                peakRssMiB());
        Files.writeString(out, line);
        if (!firstError.isEmpty()) {
            System.err.println(model + " errors: " + firstError);
        }
        System.exit(0); // lanes still running: no orderly shutdown needed for a measurement
    }

    /** Set when the measurement ends: the lanes stop making calls. */
    private static volatile boolean stop;

    private static void chain(List<Op> ops, int i, LongAdder calls, LongAdder errors, Map<String, String> firstError) {
        if (stop) {
            return;
        }
        Op op = ops.get(i % ops.size());
        op.async().get().whenComplete((r, e) -> {
            if (e == null) {
                calls.increment();
            } else {
                errors.increment();
                firstError.putIfAbsent(op.name(), e.toString());
            }
            chain(ops, i + 1, calls, errors, firstError);
        });
    }

    private static <B extends AwsClientBuilder<B, ?>> B configure(B b, URI endpoint, StaticCredentialsProvider creds,
                                                                 Region region) {
        return b.endpointOverride(endpoint).region(region).credentialsProvider(creds)
                .overrideConfiguration(o -> o.putAdvancedOption(SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION, true));
    }

    private static long peakRssMiB() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static int positive(String v, String name) {
        try {
            int n = Integer.parseInt(String.valueOf(v));
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(name + " must be an integer >= 1, but was " + v);
    }
}
