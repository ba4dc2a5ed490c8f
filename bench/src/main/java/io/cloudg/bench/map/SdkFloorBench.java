package io.cloudg.bench.map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cloudg.aws.AwsServices;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.LatencySpec;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.organizations.model.Account;
import software.amazon.awssdk.services.organizations.model.AccountStatus;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * The AWS SDK's own CPU per call, with none of cloudg's code on the path: the floor under the client CPU per call
 * (BENCHMARKS.md, "Client CPU per API call"), which tells what cloudg's own code adds. A child JVM (the launcher's JIT and collector options for {@code map}) makes the calls an
 * organization-wide map makes at its core, with the SDK alone: one shared client per service x region on one
 * Apache connection pool, each member account's assumed role passed per request, and for every account x region
 * (every account for a global service) the listing call of each collector of cloudg's catalog that lists without
 * a parent, with the literal members of its request. No governor, no collector code, no assets: the calls and
 * nothing else, on 16 threads as the embedded map's default. It makes them in passes over the same estate: the
 * first pass pays the SDK's class loading and the JIT, later ones run warm.
 *
 * <p>Usage: {@code SdkFloorBench [accounts] [regions] [--latency-ms MIN-MAX] [--passes N] [--threads N]
 * [--processes N] [--jvm "OPTIONS"] [--map DIR]} (default: {@code 200 4 --latency-ms 5-15 --passes 2 --threads 16
 * --processes 1}, and the child JVMs get the launcher's options for {@code map}; {@code --jvm} gives them others,
 * split at spaces, e.g. {@code --jvm "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}).
 * With {@code --processes N}, N child JVMs run at once, each with the accounts of its share (every Nth of the
 * organization's list) and {@code --threads} threads, as N fleet workers would share a map; the figure is then
 * their CPU together over the calls the sim answered. With {@code --map}, the
 * build in DIR maps the same estate right after (as {@link ClientCpuBench} runs it), so the two figures come
 * from one run. Every call must be answered: a call that fails (not a service's error answer, which is a round trip
 * like any other) is counted and shown by its error, and the run then exits 1, as it does when the map is not
 * the truth.
 */
public final class SdkFloorBench {
    /** The JVM options the {@code cloudg} launcher gives {@code map} ({@code c2_lite} and {@code gc} there): keep in step. */
    static final List<String> LAUNCHER_MAP_JVM = List.of("-XX:-DoEscapeAnalysis", "-XX:MaxInlineLevel=4",
            "-XX:MaxInlineSize=20", "-XX:FreqInlineSize=150", "-XX:InlineSmallCode=500", "-XX:+UseSerialGC");

    private SdkFloorBench() {
    }

    public static void main(String[] args) throws Exception {
        int accounts = 200;
        int regions = 4;
        int minMs = 5;
        int maxMs = 15;
        int passes = 2;
        int threads = 16;
        int processes = 1;
        List<String> jvm = LAUNCHER_MAP_JVM;
        Path map = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--latency-ms" -> {
                    String v = value(args, ++i, "--latency-ms");
                    String[] mm = v.split("-", 2);
                    try {
                        minMs = Integer.parseInt(mm[0]);
                        maxMs = Integer.parseInt(mm[mm.length - 1]);
                    } catch (NumberFormatException e) {
                        minMs = -1;
                    }
                    if (minMs < 0 || maxMs < minMs) {
                        throw new IllegalArgumentException("--latency-ms must be MIN-MAX milliseconds with 0 <= MIN <= MAX,"
                                + " but was \"" + v + "\"");
                    }
                }
                case "--passes" -> passes = positive(value(args, ++i, "--passes"), "--passes");
                case "--threads" -> threads = positive(value(args, ++i, "--threads"), "--threads");
                case "--processes" -> processes = positive(value(args, ++i, "--processes"), "--processes");
                case "--jvm" -> {
                    String options = value(args, ++i, "--jvm").trim();
                    if (options.isEmpty()) {
                        throw new IllegalArgumentException("--jvm must name at least one JVM option, but was empty");
                    }
                    jvm = List.of(options.split("\\s+"));
                }
                case "--map" -> map = Path.of(value(args, ++i, "--map")).toAbsolutePath();
                default -> positional.add(args[i]);
            }
        }
        if (!positional.isEmpty()) {
            accounts = positive(positional.get(0), "accounts");
        }
        if (positional.size() > 1) {
            regions = positive(positional.get(1), "regions");
        }
        List<String> regionList = ClientCpuBench.ALL_REGIONS.subList(0, Math.min(regions, ClientCpuBench.ALL_REGIONS.size()));
        EstateSpec estate = ClientCpuBench.estate(accounts, regionList)
                .withLatency(new LatencySpec(Duration.ofMillis(minMs), Duration.ofMillis(maxMs - minMs)));
        Path work = Files.createTempDirectory("cloudg-sdk-floor");
        StringBuilder result = new StringBuilder();
        long simCalls;
        long throttled;
        double user = 0;
        double sys = 0;
        boolean failedCalls = false;
        List<Process> started = new ArrayList<>();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build())) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String cp = System.getProperty("java.class.path");
            for (int share = 0; share < processes; share++) {
                List<String> child = new ArrayList<>(List.of(java));
                child.addAll(jvm);
                child.addAll(List.of("-cp", cp, Child.class.getName(), sim.awsEndpoint().toString(),
                        sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey(),
                        String.join(",", regionList), Integer.toString(passes), Integer.toString(threads),
                        work.resolve("floor-" + share + ".txt").toString(), Integer.toString(share), Integer.toString(processes)));
                String command = "TIMEFORMAT='%U %S'; { time " + child.stream().map(a -> "'" + a + "'")
                        .reduce((a, b) -> a + " " + b).orElseThrow() + " ; } 2> '" + work.resolve("time-" + share + ".txt") + "'";
                started.add(new ProcessBuilder("bash", "-c", command).inheritIO().start());
            }
            for (int share = 0; share < processes; share++) {
                int exit = started.get(share).waitFor();
                Path out = work.resolve("floor-" + share + ".txt");
                String[] ut = Files.readString(work.resolve("time-" + share + ".txt")).trim().split("\\s+");
                user += Double.parseDouble(ut[ut.length - 2]);
                sys += Double.parseDouble(ut[ut.length - 1]);
                if ((exit != 0 && exit != Child.CALLS_FAILED) || !Files.exists(out)) {
                    throw new IllegalStateException("the SDK floor's child JVM " + (share + 1) + " of " + processes
                            + " failed (exit " + exit + ")");
                }
                failedCalls |= exit == Child.CALLS_FAILED;
                if (processes > 1) {
                    result.append(String.format(Locale.ROOT, "%nchild JVM %d of %d: ", share + 1, processes));
                }
                result.append(Files.readString(out));
            }
            SimStats stats = sim.stats();
            simCalls = stats.totals().calls();
            throttled = stats.totals().throttled();
        } finally {
            for (Process p : started) { // one child failed: its siblings (java under bash) go with it
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            ClientCpuBench.deleteTree(work);
        }
        System.out.println("SDK floor, " + accounts + " x " + regions + ", " + processes + " JVM(s) of " + threads
                + " threads, latency " + minMs + "-" + maxMs + " ms, JVM options " + String.join(" ", jvm));
        System.out.print(result);
        System.out.printf(Locale.ROOT, "%n| whole child JVM(s) | %d (the sim's count; %d throttled) | | | | %.1f + %.1f | %.3f |%n",
                simCalls, throttled, user, sys, (user + sys) * 1000 / Math.max(1, simCalls));
        boolean mapWrong = false;
        if (map != null) {
            ClientCpuBench.Outcome o = ClientCpuBench.run("map", map, "", ClientCpuBench.MapOptions.DEFAULTS, estate, true);
            System.out.printf(Locale.ROOT, "%ncloudg map (%s): %d calls, %.1f + %.1f s, %.3f ms a call, assets %s the truth%n",
                    map, o.calls(), o.user(), o.sys(), o.cpuPerCallMs(), o.equal() ? "equal to" : "NOT equal to");
            System.out.print(ThreadCpu.table(Map.of("map", o.threads())));
            mapWrong = !o.equal();
        }
        if (failedCalls) {
            System.out.println("Some of the SDK's calls failed (listed above): these figures are not the floor.");
        }
        System.exit(failedCalls || mapWrong ? 1 : 0);
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return args[i];
    }

    private static int positive(String v, String name) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(name + " must be a positive integer, but was \"" + v + "\"");
    }

    /**
     * One listing call of the catalog: the service, the operation's client method, its request class's static
     * {@code builder()} and the request's literal members, their fields and values resolved once.
     */
    record Listing(AwsServices.Service service, Method method, Method builder, Map<SdkField<?>, Object> fields) {
    }

    /** The child JVM: the SDK's calls, timed by pass; writes the table's rows to the file named last. */
    public static final class Child {
        /** The child's exit when it wrote its figures but some call failed (not an error answer: a failure). */
        static final int CALLS_FAILED = 3;

        private Child() {
        }

        public static void main(String[] args) throws Exception {
            System.setProperty("aws.cborEnabled", "false"); // as cloudg's AwsClients: Kinesis in JSON
            URI endpoint = URI.create(args[0]);
            AwsCredentialsProvider management = StaticCredentialsProvider.create(AwsBasicCredentials.create(args[1], args[2]));
            List<String> regions = List.of(args[3].split(","));
            int passes = Integer.parseInt(args[4]);
            int threads = Integer.parseInt(args[5]);
            Path out = Path.of(args[6]);
            int share = args.length > 8 ? Integer.parseInt(args[7]) : 0;
            int shares = args.length > 8 ? Integer.parseInt(args[8]) : 1;
            String home = "us-east-1";
            SdkHttpClient http = ApacheHttpClient.builder().maxConnections(Math.max(8, threads))
                    .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofSeconds(60)).build();
            Map<String, SdkClient> clients = new ConcurrentHashMap<>();
            List<Listing> listings = listings();
            StsClient sts = (StsClient) client(StsClient.class, home, endpoint, http, management, clients);
            OrganizationsClient org = (OrganizationsClient) client(OrganizationsClient.class, home, endpoint, http, management, clients);
            String self = sts.getCallerIdentity().account();
            Map<String, AwsCredentialsProvider> accounts = new LinkedHashMap<>();
            int position = 0;
            for (Account a : (Iterable<Account>) org.listAccountsPaginator().stream().flatMap(r -> r.accounts().stream())::iterator) {
                if (a.status() != AccountStatus.ACTIVE || position++ % shares != share) {
                    continue;
                }
                accounts.put(a.id(), a.id().equals(self) ? management : StsAssumeRoleCredentialsProvider.builder()
                        .stsClient(sts).refreshRequest(r -> r.roleArn("arn:aws:iam::" + a.id() + ":role/OrganizationAccountAccessRole")
                                .roleSessionName("cloudg").durationSeconds(3600)).build());
            }
            StringBuilder rows = new StringBuilder();
            rows.append(String.format(Locale.ROOT, "%d accounts, %d listing calls of the catalog (services: %d)%n%n",
                    accounts.size(), listings.size(), listings.stream().map(l -> l.service().key()).distinct().count()));
            rows.append("| pass | calls | of them error answers | failed | wall (s) | process CPU (s) | CPU per call (ms) |\n|---|---|---|---|---|---|---|\n");
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            Map<String, LongAdder> failures = new ConcurrentHashMap<>();
            Map<String, LongAdder> answers = new ConcurrentHashMap<>();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            for (int pass = 1; pass <= passes; pass++) {
                AtomicLong calls = new AtomicLong();
                LongAdder failed = new LongAdder();
                LongAdder errorAnswers = new LongAdder();
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                List<Future<?>> jobs = new ArrayList<>();
                for (Map.Entry<String, AwsCredentialsProvider> account : accounts.entrySet()) {
                    AwsRequestOverrideConfiguration override = AwsRequestOverrideConfiguration.builder()
                            .credentialsProvider(account.getValue()).build();
                    for (String region : regions) {
                        boolean first = region.equals(regions.get(0));
                        jobs.add(pool.submit(() -> {
                            for (Listing l : listings) {
                                if (l.service().global() && !first) {
                                    continue;
                                }
                                String callRegion = l.service().global() ? home : region;
                                try {
                                    SdkClient c = client(l.service().client(), callRegion, endpoint, http, management, clients);
                                    l.method().invoke(c, request(l, override));
                                } catch (Exception e) {
                                    Throwable t = e instanceof java.lang.reflect.InvocationTargetException ? e.getCause() : e;
                                    String what = l.service().key() + " " + l.method().getName() + ": " + t.getClass().getSimpleName();
                                    if (t instanceof AwsServiceException) {
                                        errorAnswers.increment(); // a round trip all the same (an "absent" answer)
                                        answers.computeIfAbsent(what, k -> new LongAdder()).increment();
                                    } else {
                                        failed.increment();
                                        failures.computeIfAbsent(what + " (" + t.getMessage() + ")", k -> new LongAdder()).increment();
                                    }
                                }
                                calls.incrementAndGet();
                            }
                        }));
                    }
                }
                for (Future<?> f : jobs) {
                    f.get();
                }
                double wall = (System.nanoTime() - t0) / 1e9;
                double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
                rows.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %.1f | %.1f | %.3f |%n", pass, calls.get(),
                        errorAnswers.sum(), failed.sum(), wall, cpu, cpu * 1000 / Math.max(1, calls.get())));
            }
            pool.shutdown();
            if (!answers.isEmpty()) {
                rows.append("\nerror answers (the service's \"not configured\", as cloudg's collectors expect them), all passes:\n");
                answers.forEach((k, v) -> rows.append("  ").append(k).append(" x").append(v.sum()).append('\n'));
            }
            if (!failures.isEmpty()) {
                rows.append("\nfailed calls, by operation and error:\n");
                failures.forEach((k, v) -> rows.append("  ").append(k).append(" x").append(v.sum()).append('\n'));
            }
            clients.values().forEach(SdkClient::close);
            http.close();
            Files.writeString(out, rows.toString());
            System.exit(failures.isEmpty() ? 0 : CALLS_FAILED);
        }

        /** The shared client of {@code type} in {@code region}, built as cloudg's {@code AwsClients} builds it. */
        static SdkClient client(Class<? extends SdkClient> type, String region, URI endpoint, SdkHttpClient http,
                                AwsCredentialsProvider credentials, Map<String, SdkClient> clients) {
            String key = type.getName() + "|" + region;
            SdkClient c = clients.get(key);
            return c != null ? c : clients.computeIfAbsent(key, k -> {
                try {
                    AwsClientBuilder<?, ?> b = (AwsClientBuilder<?, ?>) type.getMethod("builder").invoke(null);
                    b.region(Region.of(region)).credentialsProvider(credentials).endpointOverride(endpoint);
                    b.overrideConfiguration(o -> o.putAdvancedOption(SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION, true));
                    ((AwsSyncClientBuilder<?, ?>) b).httpClient(http);
                    if (b instanceof S3ClientBuilder s3) {
                        s3.forcePathStyle(true).crossRegionAccessEnabled(true)
                                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
                    }
                    return (SdkClient) b.build();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(type.getName(), e);
                }
            });
        }

        /** The request of one listing: its literal members set, made as the account by {@code override}. */
        static AwsRequest request(Listing l, AwsRequestOverrideConfiguration override) throws Exception {
            Object builder = l.builder().invoke(null);
            l.fields().forEach((f, v) -> f.set(builder, v));
            AwsRequest.Builder rb = (AwsRequest.Builder) builder;
            return (AwsRequest) rb.overrideConfiguration(override).build();
        }

        /**
         * The catalog's listing calls made without a parent and with literal request members of the simple types
         * (numbers, strings, booleans, lists of strings); the others are left out.
         */
        static List<Listing> listings() throws Exception {
            ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
            JsonNode root;
            try (InputStream in = io.cloudg.aws.AwsCatalog.class.getResourceAsStream(io.cloudg.aws.AwsCatalog.RESOURCE)) {
                root = yaml.readTree(in);
            }
            List<Listing> out = new ArrayList<>();
            for (JsonNode c : root.path("collectors")) {
                if (c.has("parent") || c.path("scope").asText("").equals("management")) {
                    continue;
                }
                AwsServices.Service svc = AwsServices.byKey(c.path("service").asText());
                String op = c.path("call").asText();
                String methodName = Character.toLowerCase(op.charAt(0)) + op.substring(1);
                Method method = null;
                for (Method m : svc.client().getMethods()) {
                    if (m.getName().equals(methodName) && m.getParameterCount() == 1
                            && AwsRequest.class.isAssignableFrom(m.getParameterTypes()[0])) {
                        method = m;
                    }
                }
                if (method == null) {
                    continue;
                }
                Map<String, Object> members = new LinkedHashMap<>();
                boolean simple = true;
                for (Iterator<Map.Entry<String, JsonNode>> it = c.path("request").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    JsonNode v = e.getValue();
                    if (v.isInt()) {
                        members.put(e.getKey(), v.intValue());
                    } else if (v.isBoolean()) {
                        members.put(e.getKey(), v.booleanValue());
                    } else if (v.isTextual() && !v.asText().contains("{")) {
                        members.put(e.getKey(), v.asText());
                    } else if (v.isArray() && java.util.stream.StreamSupport.stream(v.spliterator(), false).allMatch(JsonNode::isTextual)) {
                        List<String> list = new ArrayList<>();
                        v.forEach(x -> list.add(x.asText()));
                        members.put(e.getKey(), list);
                    } else {
                        simple = false;
                    }
                }
                if (simple) {
                    Method builder = method.getParameterTypes()[0].getMethod("builder");
                    List<SdkField<?>> known = ((SdkPojo) builder.invoke(null)).sdkFields();
                    Map<SdkField<?>, Object> fields = new LinkedHashMap<>();
                    members.forEach((name, v) -> known.stream().filter(f -> f.memberName().equals(name)).forEach(f ->
                            fields.put(f, v instanceof Integer i && f.marshallingType() == MarshallingType.LONG ? Long.valueOf(i) : v)));
                    out.add(new Listing(svc, method, builder, fields));
                }
            }
            return out;
        }
    }
}
