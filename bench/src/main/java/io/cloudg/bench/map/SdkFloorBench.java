package io.cloudg.bench.map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cloudg.aws.AwsServices;
import io.cloudg.config.AwsSettings;
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
import java.util.Set;
import java.util.function.Supplier;
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
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
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
import software.amazon.awssdk.retries.api.RetryStrategy;
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
    public static final List<String> LAUNCHER_MAP_JVM = List.of("-XX:-DoEscapeAnalysis", "-XX:MaxInlineLevel=4",
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
     * One listing call of the catalog: the collector's name, the service, the operation's client method, its
     * request class's static {@code builder()} and the request's literal members, their fields and values resolved
     * once; for {@link Child.Options#items()}, the operation's paginator method (null: one call), the path of the
     * items in an answer, the items' id member, and the per-item calls of the collector ({@code details}) that name
     * the item by {@code {id}} alone.
     */
    record Listing(String name, AwsServices.Service service, Method method, Method builder, Map<SdkField<?>, Object> fields,
                   Method paginator, String items, String id, List<Detail> details) {
    }

    /** A per-item call: its client method, request builder, literal members, and the members that take the item's id. */
    record Detail(Method method, Method builder, Map<SdkField<?>, Object> fields, List<SdkField<?>> idFields) {
    }

    /**
     * The child JVM: the SDK's calls, timed by pass; writes the table's rows to the file named (and, next to it in
     * {@code FILE.properties}, the last pass's counts for a program to read). After the nine positional arguments,
     * the options of {@link Options}.
     */
    public static final class Child {
        /** The child's exit when it wrote its figures but some call failed (not an error answer: a failure). */
        static final int CALLS_FAILED = 3;

        private Child() {
        }

        /**
         * What the child does beyond the floor's listing calls.
         *
         * @param retry           {@code --retry MODE[:ATTEMPTS]} ({@code adaptive}, {@code standard} or {@code
         *                        legacy}): each client's retry strategy, the SDK's own in that mode with ATTEMPTS
         *                        attempts in all (default: cloudg's {@code aws.max_retries} + 1, as cloudg's clients);
         *                        null (no option): the SDK's default strategy
         * @param collectors      {@code --collectors a,b}: only these collectors of the catalog (empty: all)
         * @param items           {@code --items}: as the collectors do, every page of a listing, then each item's
         *                        per-item calls, {@code aws.item_concurrency} (8) of them at a time per listing
         * @param clientPerAccount {@code --client-per-account}: each account its own clients (so its own retry state,
         *                        as cloudg keeps the SDK's strategy per account), not one per service x region for all
         */
        public record Options(String retry, Set<String> collectors, boolean items, boolean clientPerAccount) {
            static Options parse(String[] args, int from) {
                String retry = null;
                Set<String> collectors = Set.of();
                boolean items = false;
                boolean perAccount = false;
                for (int i = from; i < args.length; i++) {
                    switch (args[i]) {
                        case "--retry" -> {
                            retry = value(args, ++i, "--retry");
                            retryStrategy(retry); // refused here, naming the value
                        }
                        case "--collectors" -> collectors = Set.of(value(args, ++i, "--collectors").split(","));
                        case "--items" -> items = true;
                        case "--client-per-account" -> perAccount = true;
                        default -> throw new IllegalArgumentException("unknown option of the SDK child: " + args[i]);
                    }
                }
                return new Options(retry, collectors, items, perAccount);
            }

            /** The arguments that give these options to a child. */
            public List<String> args() {
                List<String> a = new ArrayList<>();
                if (retry != null) {
                    a.addAll(List.of("--retry", retry));
                }
                if (!collectors.isEmpty()) {
                    a.addAll(List.of("--collectors", String.join(",", collectors)));
                }
                if (items) {
                    a.add("--items");
                }
                if (clientPerAccount) {
                    a.add("--client-per-account");
                }
                return a;
            }
        }

        /** A new retry strategy for {@code --retry MODE[:ATTEMPTS]}. */
        public static RetryStrategy retryStrategy(String spec) {
            String[] p = spec.split(":", 2);
            int attempts = AwsSettings.DEFAULTS.maxRetries() + 1;
            if (p.length > 1) {
                attempts = positive(p[1], "--retry's attempts");
            }
            return switch (p[0]) {
                case "adaptive" -> AwsRetryStrategy.adaptiveRetryStrategy().toBuilder().maxAttempts(attempts).build();
                case "standard" -> AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(attempts).build();
                case "legacy" -> AwsRetryStrategy.legacyRetryStrategy().toBuilder().maxAttempts(attempts).build();
                default -> throw new IllegalArgumentException("--retry must be adaptive, standard or legacy, optionally"
                        + " with :ATTEMPTS, but was \"" + spec + "\"");
            };
        }

        /** One pass's counts: calls made (pages and per-item calls each count), and how those that did not succeed ended. */
        static final class Tally {
            final AtomicLong calls = new AtomicLong();
            final LongAdder errorAnswers = new LongAdder();
            final LongAdder gaveUp = new LongAdder();
            final LongAdder failed = new LongAdder();

            /** A call that did not succeed: a service's answer (throttled after the SDK's retries: given up), or a failure. */
            void record(Throwable e, String what, Map<String, LongAdder> answers, Map<String, LongAdder> failures) {
                Throwable t = e instanceof java.lang.reflect.InvocationTargetException ? e.getCause() : e;
                String key = what + ": " + t.getClass().getSimpleName();
                if (t instanceof AwsServiceException ase && ase.isThrottlingException()) {
                    gaveUp.increment();
                    answers.computeIfAbsent(key + " (throttled, the SDK's retries spent)", k -> new LongAdder()).increment();
                } else if (t instanceof AwsServiceException) {
                    errorAnswers.increment(); // a round trip all the same (an "absent" answer)
                    answers.computeIfAbsent(key, k -> new LongAdder()).increment();
                } else {
                    failed.increment();
                    failures.computeIfAbsent(key + " (" + t.getMessage() + ")", k -> new LongAdder()).increment();
                }
            }
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
            Options options = Options.parse(args, 9);
            String home = "us-east-1";
            SdkHttpClient http = ApacheHttpClient.builder().maxConnections(Math.max(8, threads))
                    .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofSeconds(60)).build();
            Map<String, SdkClient> clients = new ConcurrentHashMap<>();
            Map<String, Map<String, SdkClient>> perAccount = new ConcurrentHashMap<>();
            Supplier<RetryStrategy> retry = options.retry() == null ? null : () -> retryStrategy(options.retry());
            List<Listing> listings = listings(options);
            StsClient sts = (StsClient) client(StsClient.class, home, endpoint, http, management, clients, retry);
            OrganizationsClient org = (OrganizationsClient) client(OrganizationsClient.class, home, endpoint, http, management,
                    clients, retry);
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
            rows.append(String.format(Locale.ROOT, "%d accounts, %d listing calls of the catalog (services: %d)%s%n%n",
                    accounts.size(), listings.size(), listings.stream().map(l -> l.service().key()).distinct().count(),
                    options.items() ? ", every page and the per-item calls" : ""));
            rows.append("| pass | calls | of them error answers | throttled, given up | failed | wall (s) | process CPU (s) | CPU per call (ms) |\n"
                    + "|---|---|---|---|---|---|---|---|\n");
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            Map<String, LongAdder> failures = new ConcurrentHashMap<>();
            Map<String, LongAdder> answers = new ConcurrentHashMap<>();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            ExecutorService itemPool = Executors.newCachedThreadPool();
            Tally tally = null;
            double wall = 0;
            for (int pass = 1; pass <= passes; pass++) {
                Tally t = new Tally();
                tally = t;
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                List<Future<?>> jobs = new ArrayList<>();
                for (Map.Entry<String, AwsCredentialsProvider> account : accounts.entrySet()) {
                    AwsRequestOverrideConfiguration override = AwsRequestOverrideConfiguration.builder()
                            .credentialsProvider(account.getValue()).build();
                    Map<String, SdkClient> accountClients = options.clientPerAccount()
                            ? perAccount.computeIfAbsent(account.getKey(), k -> new ConcurrentHashMap<>()) : clients;
                    for (String region : regions) {
                        boolean first = region.equals(regions.get(0));
                        jobs.add(pool.submit(() -> {
                            for (Listing l : listings) {
                                if (l.service().global() && !first) {
                                    continue;
                                }
                                String callRegion = l.service().global() ? home : region;
                                SdkClient c = client(l.service().client(), callRegion, endpoint, http, management,
                                        accountClients, retry);
                                if (options.items()) {
                                    collect(l, c, override, itemPool, t, answers, failures);
                                    continue;
                                }
                                try {
                                    l.method().invoke(c, request(l, override));
                                } catch (Exception e) {
                                    t.record(e, l.service().key() + " " + l.method().getName(), answers, failures);
                                }
                                t.calls.incrementAndGet();
                            }
                        }));
                    }
                }
                for (Future<?> f : jobs) {
                    f.get();
                }
                wall = (System.nanoTime() - t0) / 1e9;
                double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
                rows.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %d | %.1f | %.1f | %.3f |%n", pass, t.calls.get(),
                        t.errorAnswers.sum(), t.gaveUp.sum(), t.failed.sum(), wall, cpu, cpu * 1000 / Math.max(1, t.calls.get())));
            }
            pool.shutdown();
            itemPool.shutdown();
            if (!answers.isEmpty()) {
                rows.append("\nerror answers (the service's \"not configured\", as cloudg's collectors expect them, and"
                        + " throttles the SDK's retries did not outlast), all passes:\n");
                answers.forEach((k, v) -> rows.append("  ").append(k).append(" x").append(v.sum()).append('\n'));
            }
            if (!failures.isEmpty()) {
                rows.append("\nfailed calls, by operation and error:\n");
                failures.forEach((k, v) -> rows.append("  ").append(k).append(" x").append(v.sum()).append('\n'));
            }
            clients.values().forEach(SdkClient::close);
            perAccount.values().forEach(m -> m.values().forEach(SdkClient::close));
            http.close();
            Files.writeString(out, rows.toString());
            if (tally != null) {
                Files.writeString(out.resolveSibling(out.getFileName() + ".properties"), String.format(Locale.ROOT,
                        "calls=%d%nerror_answers=%d%ngave_up=%d%nfailed=%d%nwall_seconds=%.3f%n", tally.calls.get(),
                        tally.errorAnswers.sum(), tally.gaveUp.sum(), tally.failed.sum(), wall));
            }
            System.exit(failures.isEmpty() ? 0 : CALLS_FAILED);
        }

        /**
         * One listing as its collector makes it ({@code --items}): every page, then for each item the per-item calls,
         * {@link AwsSettings#DEFAULT_ITEM_CONCURRENCY} at a time (the items dealt round-robin over that many lanes).
         */
        static void collect(Listing l, SdkClient c, AwsRequestOverrideConfiguration override, ExecutorService itemPool,
                            Tally t, Map<String, LongAdder> answers, Map<String, LongAdder> failures) {
            String what = l.service().key() + " " + l.method().getName();
            List<String> ids = new ArrayList<>();
            try {
                if (l.paginator() == null) {
                    t.calls.incrementAndGet();
                    ids.addAll(ids((SdkPojo) l.method().invoke(c, request(l, override)), l));
                } else {
                    Iterator<?> pages = ((Iterable<?>) l.paginator().invoke(c, request(l, override))).iterator();
                    while (true) {
                        t.calls.incrementAndGet(); // the page asked for next (the last ask may throw)
                        if (!pages.hasNext()) {
                            t.calls.decrementAndGet(); // no ask: the previous page said it was the last
                            break;
                        }
                        ids.addAll(ids((SdkPojo) pages.next(), l));
                    }
                }
            } catch (Exception e) {
                t.record(e, what, answers, failures);
            }
            if (l.details().isEmpty() || ids.isEmpty()) {
                return;
            }
            int lanes = Math.min(AwsSettings.DEFAULT_ITEM_CONCURRENCY, ids.size());
            List<Future<?>> running = new ArrayList<>();
            for (int lane = 0; lane < lanes; lane++) {
                int first = lane;
                running.add(itemPool.submit(() -> {
                    for (int i = first; i < ids.size(); i += lanes) {
                        for (Detail d : l.details()) {
                            t.calls.incrementAndGet();
                            try {
                                d.method().invoke(c, detailRequest(d, ids.get(i), override));
                            } catch (Exception e) {
                                t.record(e, l.service().key() + " " + d.method().getName(), answers, failures);
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (java.util.concurrent.ExecutionException e) {
                    t.record(e.getCause(), what + " per-item calls", answers, failures);
                }
            }
        }

        /** The ids of the items of one answer: the listing's items path (members, dotted), then its id member. */
        static List<String> ids(SdkPojo answer, Listing l) {
            List<SdkPojo> level = List.of(answer);
            for (String member : l.items().split("\\.")) {
                List<SdkPojo> next = new ArrayList<>();
                for (SdkPojo p : level) {
                    Object v = member(p, member);
                    if (v instanceof List<?> list) {
                        list.forEach(x -> {
                            if (x instanceof SdkPojo sp) {
                                next.add(sp);
                            }
                        });
                    } else if (v instanceof SdkPojo sp) {
                        next.add(sp);
                    }
                }
                level = next;
            }
            List<String> ids = new ArrayList<>();
            for (SdkPojo item : level) {
                Object id = l.id() == null ? null : member(item, l.id());
                if (id != null) {
                    ids.add(id.toString());
                }
            }
            return ids;
        }

        private static Object member(SdkPojo p, String name) {
            for (SdkField<?> f : p.sdkFields()) {
                if (f.memberName().equals(name)) {
                    return f.getValueOrDefault(p);
                }
            }
            return null;
        }

        /** The request of one per-item call for the item {@code id}, made as the account by {@code override}. */
        static AwsRequest detailRequest(Detail d, String id, AwsRequestOverrideConfiguration override) throws Exception {
            Object builder = d.builder().invoke(null);
            d.fields().forEach((f, v) -> f.set(builder, v));
            d.idFields().forEach(f -> f.set(builder, id));
            return (AwsRequest) ((AwsRequest.Builder) builder).overrideConfiguration(override).build();
        }

        /** The shared client of {@code type} in {@code region}, built as cloudg's {@code AwsClients} builds it. */
        static SdkClient client(Class<? extends SdkClient> type, String region, URI endpoint, SdkHttpClient http,
                                AwsCredentialsProvider credentials, Map<String, SdkClient> clients,
                                Supplier<RetryStrategy> retry) {
            String key = type.getName() + "|" + region;
            SdkClient c = clients.get(key);
            return c != null ? c : clients.computeIfAbsent(key, k -> {
                try {
                    AwsClientBuilder<?, ?> b = (AwsClientBuilder<?, ?>) type.getMethod("builder").invoke(null);
                    b.region(Region.of(region)).credentialsProvider(credentials).endpointOverride(endpoint);
                    b.overrideConfiguration(o -> {
                        o.putAdvancedOption(SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION, true);
                        if (retry != null) {
                            o.retryStrategy(retry.get());
                        }
                    });
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
         * (numbers, strings, booleans, lists of strings); the others are left out. With {@code options}' collectors,
         * only those; with its {@code items}, each with its paginator, items, id and the per-item calls whose request
         * members are literals or the item's {@code {id}} (a per-item call naming anything else is left out).
         */
        static List<Listing> listings(Options options) throws Exception {
            ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
            JsonNode root;
            try (InputStream in = io.cloudg.aws.AwsCatalog.class.getResourceAsStream(io.cloudg.aws.AwsCatalog.RESOURCE)) {
                root = yaml.readTree(in);
            }
            List<Listing> out = new ArrayList<>();
            for (JsonNode c : root.path("collectors")) {
                if (c.has("parent") || c.path("scope").asText("").equals("management")
                        || !options.collectors().isEmpty() && !options.collectors().contains(c.path("name").asText())) {
                    continue;
                }
                AwsServices.Service svc = AwsServices.byKey(c.path("service").asText());
                Method method = method(svc, c.path("call").asText());
                Map<String, Object> members = method == null ? null : literals(c.path("request"), List.of());
                if (members == null) {
                    continue;
                }
                Method builder = method.getParameterTypes()[0].getMethod("builder");
                Method paginator = null;
                List<Detail> details = new ArrayList<>();
                if (options.items()) {
                    try {
                        paginator = svc.client().getMethod(method.getName() + "Paginator", method.getParameterTypes()[0]);
                    } catch (NoSuchMethodException e) {
                        // one call lists everything
                    }
                    for (JsonNode d : c.path("details")) {
                        Method dm = method(svc, d.path("call").asText());
                        List<String> idMembers = new ArrayList<>();
                        Map<String, Object> literal = dm == null ? null : literals(d.path("request"), idMembers);
                        if (literal != null) {
                            Method db = dm.getParameterTypes()[0].getMethod("builder");
                            List<SdkField<?>> idFields = ((SdkPojo) db.invoke(null)).sdkFields().stream()
                                    .filter(f -> idMembers.contains(f.memberName())).toList();
                            details.add(new Detail(dm, db, fields(db, literal), idFields));
                        }
                    }
                }
                out.add(new Listing(c.path("name").asText(), svc, method, builder, fields(builder, members), paginator,
                        c.path("items").asText(null), c.path("id").asText(null), details));
            }
            return out;
        }

        /** The client method of operation {@code op} (e.g. {@code DescribeImages}) taking its request; null if none. */
        private static Method method(AwsServices.Service svc, String op) {
            String methodName = Character.toLowerCase(op.charAt(0)) + op.substring(1);
            for (Method m : svc.client().getMethods()) {
                if (m.getName().equals(methodName) && m.getParameterCount() == 1
                        && AwsRequest.class.isAssignableFrom(m.getParameterTypes()[0])) {
                    return m;
                }
            }
            return null;
        }

        /**
         * A catalog request's literal members by name; a member whose value is exactly {@code "{id}"} goes to
         * {@code idMembers}. Null when some member is neither (another placeholder, a structure).
         */
        private static Map<String, Object> literals(JsonNode request, List<String> idMembers) {
            Map<String, Object> members = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = request.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (v.isInt()) {
                    members.put(e.getKey(), v.intValue());
                } else if (v.isBoolean()) {
                    members.put(e.getKey(), v.booleanValue());
                } else if (v.isTextual() && v.asText().equals("{id}")) {
                    idMembers.add(e.getKey());
                } else if (v.isTextual() && !v.asText().contains("{")) {
                    members.put(e.getKey(), v.asText());
                } else if (v.isArray() && java.util.stream.StreamSupport.stream(v.spliterator(), false).allMatch(JsonNode::isTextual)) {
                    List<String> list = new ArrayList<>();
                    v.forEach(x -> list.add(x.asText()));
                    members.put(e.getKey(), list);
                } else {
                    return null;
                }
            }
            return members;
        }

        /** The request fields of {@code members} (by member name) for the request class of {@code builder}. */
        private static Map<SdkField<?>, Object> fields(Method builder, Map<String, Object> members) throws Exception {
            List<SdkField<?>> known = ((SdkPojo) builder.invoke(null)).sdkFields();
            Map<SdkField<?>, Object> fields = new LinkedHashMap<>();
            members.forEach((name, v) -> known.stream().filter(f -> f.memberName().equals(name)).forEach(f ->
                    fields.put(f, v instanceof Integer i && f.marshallingType() == MarshallingType.LONG ? Long.valueOf(i) : v)));
            return fields;
        }
    }
}
