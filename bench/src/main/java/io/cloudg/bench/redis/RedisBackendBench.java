package io.cloudg.bench.redis;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.redis.StateStores;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.redisson.Bucket4jRedisson;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Governed calls per second through one Redis, and the latency the governor adds, next to Redisson's
 * {@code RRateLimiter.tryAcquire()} and Bucket4j's {@code tryConsume(1)} over Redis (Redisson CAS
 * proxy manager) on the same server in the same run.
 *
 * <p>Throughput: {@code --threads} callers (64) over {@code --keys} keys (1,000), limits far above the
 * offered load so that nothing waits; a cloudg call is a whole governed call ({@code Governor.call} with a
 * no-op request: admission with breaker, leaf, bulkhead slot, then the outcome with AIMD, breaker and
 * release, i.e. two scripts), the others one acquisition. Latency is per call/acquisition, measured after
 * the warm-up. Accuracy: 16 callers on one key limited to 100/s with a burst of 100 for 10 s; a limiter
 * should grant (cloudg: send) 1,100 and never more.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.cloudg.bench.redis.RedisBackendBench [--redis redis://host:port]
 *      [--seconds 10] [--warmup 3] [--threads 64] [--keys 1000] [--runs 1]
 * </pre>
 * Without {@code --redis} it starts {@code redis-server} from the PATH on a free loopback port.
 */
public final class RedisBackendBench {
    private RedisBackendBench() {
    }

    /** One contender: does one call or acquisition on key {@code k}, returns whether it was granted. */
    interface Op {
        boolean run(int key) throws Exception;
    }

    record Result(String name, double callsPerSecond, long p50Micros, long p99Micros, long errors) {
    }

    static int POOL = 16;
    static int PIPELINE = 64;
    static boolean ONLY_CLOUDG;

    public static void main(String[] args) throws Exception {
        POOL = Integer.parseInt(arg(args, "--pool", "16"));
        PIPELINE = Integer.parseInt(arg(args, "--pipeline", "64"));
        boolean onlyCloudg = args.length > 0 && Arrays.asList(args).contains("--only-cloudg");
        ONLY_CLOUDG = onlyCloudg;
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        String url = arg(args, "--redis", null);
        int seconds = Integer.parseInt(arg(args, "--seconds", "10"));
        int warmup = Integer.parseInt(arg(args, "--warmup", "3"));
        int threads = Integer.parseInt(arg(args, "--threads", "64"));
        int keys = Integer.parseInt(arg(args, "--keys", "1000"));
        int runs = Integer.parseInt(arg(args, "--runs", "1"));
        Process server = null;
        if (url == null) {
            int port = freePort();
            Path dir = Files.createTempDirectory("cloudg-bench-redis");
            server = new ProcessBuilder(redisServer(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", dir.toString())
                    .redirectOutput(dir.resolve("redis.log").toFile()).redirectErrorStream(true).start();
            awaitPort(port);
            url = "redis://127.0.0.1:" + port;
        }
        System.out.printf(Locale.ROOT, "Redis %s, %d callers over %d keys, %d s after %d s warm-up, %d run(s)%n", url,
                threads, keys, seconds, warmup, runs);
        try {
            for (int r = 1; r <= runs; r++) {
                System.out.println("run " + r);
                throughput(url, threads, keys, seconds, warmup);
            }
            if (!ONLY_CLOUDG) {
                accuracy(url);
            }
        } finally {
            if (server != null) {
                server.destroy();
            }
        }
    }

    // ------------------------------------------------------------------ contenders

    static Governor cloudg(String url, String prefix, double rate, double burst, int maxConcurrency) {
        RedisSettings s = RedisSettings.builder().url(url).keyPrefix(prefix).timeoutMs(3000).poolSize(POOL)
                .minIdle(POOL).pipelineMaxBatch(PIPELINE).build();
        RateLimitConfig c = RateLimitConfig.builder()
                .aws(a -> a.service("ec2", rate, burst).maxConcurrency(maxConcurrency))
                .build().withBackend(RateLimitConfig.Backend.REDIS, s);
        return StateStores.governor(c);
    }

    static Scope[] leaves(int keys) {
        Scope[] out = new Scope[keys];
        for (int i = 0; i < keys; i++) {
            out[i] = Scope.of("aws", "1000000000" + String.format(Locale.ROOT, "%02d", i % 10), "us-east-1", "ec2",
                    "Describe" + i);
        }
        return out;
    }

    static RedissonClient redisson(String url) {
        Config c = new Config();
        c.useSingleServer().setAddress(url).setConnectionPoolSize(64).setConnectionMinimumIdleSize(64);
        return Redisson.create(c);
    }

    static ProxyManager<String> bucket4j(RedissonClient client) {
        return Bucket4jRedisson.casBasedBuilder(((Redisson) client).getCommandExecutor()).build();
    }

    static BucketConfiguration bucketConfig(long capacity, long perSecond) {
        return BucketConfiguration.builder()
                .addLimit(l -> l.capacity(capacity).refillGreedy(perSecond, Duration.ofSeconds(1))).build();
    }

    // ------------------------------------------------------------------ throughput

    static void throughput(String url, int threads, int keys, int seconds, int warmup) throws Exception {
        List<Result> results = new ArrayList<>();
        String run = Long.toString(System.nanoTime() % 100000);
        try (Governor g = cloudg(url, "bench" + run, 1_000_000, 1_000_000, 100_000)) {
            Scope[] leaves = leaves(keys);
            results.add(measure("cloudg governed call (Redis backend)", threads, keys, seconds, warmup, k -> {
                g.call(leaves[k], () -> Boolean.TRUE);
                return true;
            }));
            g.store().clear();
        }
        if (ONLY_CLOUDG) {
            print(results);
            return;
        }
        RedissonClient client = redisson(url);
        try {
            RRateLimiter[] limiters = new RRateLimiter[keys];
            for (int i = 0; i < keys; i++) {
                limiters[i] = client.getRateLimiter("bench" + run + ":rrl:" + i);
                limiters[i].trySetRate(RateType.OVERALL, 1_000_000, Duration.ofSeconds(1));
            }
            results.add(measure("Redisson RRateLimiter.tryAcquire", threads, keys, seconds, warmup,
                    k -> limiters[k].tryAcquire()));
            ProxyManager<String> pm = bucket4j(client);
            BucketConfiguration cfg = bucketConfig(1_000_000, 1_000_000);
            results.add(measure("Bucket4j 8.14 over Redis (Redisson CAS) tryConsume(1)", threads, keys, seconds, warmup,
                    k -> pm.getProxy("bench" + run + ":b4j:" + k, () -> cfg).tryConsume(1)));
            client.getKeys().deleteByPattern("bench" + run + ":*");
        } finally {
            client.shutdown();
        }
        print(results);
    }

    static void print(List<Result> results) {
        System.out.println("| what | calls/s | p50 us | p99 us | errors |");
        System.out.println("|---|---|---|---|---|");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "| %s | %,.0f | %,d | %,d | %d |%n", r.name, r.callsPerSecond, r.p50Micros,
                    r.p99Micros, r.errors);
        }
    }

    static Result measure(String name, int threads, int keys, int seconds, int warmup, Op op) throws Exception {
        long start = System.nanoTime();
        long measureFrom = start + warmup * 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        AtomicLong errors = new AtomicLong();
        long[][] samples = new long[threads][];
        int[] counts = new int[threads];
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread th = new Thread(() -> {
                long[] lat = new long[1 << 16];
                int n = 0;
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (true) {
                    long t0 = System.nanoTime();
                    if (t0 >= end) {
                        break;
                    }
                    try {
                        op.run(rnd.nextInt(keys));
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    long t1 = System.nanoTime();
                    if (t0 >= measureFrom) {
                        if (n == lat.length) {
                            lat = Arrays.copyOf(lat, n * 2);
                        }
                        lat[n++] = t1 - t0;
                    }
                }
                samples[id] = lat;
                counts[id] = n;
            });
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            th.join();
        }
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        long[] all = new long[total];
        int i = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(samples[t], 0, all, i, counts[t]);
            i += counts[t];
        }
        Arrays.sort(all);
        long p50 = total == 0 ? 0 : all[(int) (total * 0.50)] / 1000;
        long p99 = total == 0 ? 0 : all[Math.min(total - 1, (int) (total * 0.99))] / 1000;
        return new Result(name, total / (double) seconds, p50, p99, errors.get());
    }

    // ------------------------------------------------------------------ accuracy

    static void accuracy(String url) throws Exception {
        int threads = 16;
        long windowMs = 10_000;
        long allowed = 100 * 10 + 100;
        String run = Long.toString(System.nanoTime() % 100000);
        System.out.println();
        System.out.println("Accuracy: one key at 100/s, burst 100, 16 callers, 10 s; at most " + allowed + " allowed");
        System.out.println("| what | granted | of allowed |");
        System.out.println("|---|---|---|");
        try (Governor g = cloudg(url, "acc" + run, 100, 100, 1000)) {
            Scope leaf = Scope.of("aws", "100000000000", "us-east-1", "ec2", "DescribeVolumes");
            long start = System.currentTimeMillis() + 200;
            long end = start + windowMs;
            long sent = granted(threads, start, end, () -> {
                long[] at = new long[1];
                g.call(leaf, () -> at[0] = System.currentTimeMillis());
                return at[0] >= start && at[0] < end;
            });
            row("cloudg governed call (sends inside the window)", sent, allowed);
            g.store().clear();
        }
        RedissonClient client = redisson(url);
        try {
            RRateLimiter rl = client.getRateLimiter("acc" + run + ":rrl");
            rl.trySetRate(RateType.OVERALL, 100, Duration.ofSeconds(1));
            long start = System.currentTimeMillis() + 200;
            row("Redisson RRateLimiter.tryAcquire", granted(threads, start, start + windowMs, rl::tryAcquire), allowed);
            ProxyManager<String> pm = bucket4j(client);
            BucketConfiguration cfg = bucketConfig(100, 100);
            long start2 = System.currentTimeMillis() + 200;
            row("Bucket4j over Redis tryConsume(1)", granted(threads, start2, start2 + windowMs,
                    () -> pm.getProxy("acc" + run + ":b4j", () -> cfg).tryConsume(1)), allowed);
            client.getKeys().deleteByPattern("acc" + run + ":*");
        } finally {
            client.shutdown();
        }
    }

    interface Grant {
        boolean run() throws Exception;
    }

    static long granted(int threads, long startMs, long endMs, Grant op) throws Exception {
        AtomicLong n = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                while (System.currentTimeMillis() < startMs) {
                    LockSupport.parkNanos(1_000_000);
                }
                while (System.currentTimeMillis() < endMs) {
                    try {
                        if (op.run()) {
                            n.incrementAndGet();
                        }
                    } catch (Exception e) {
                        // counted as not granted
                    }
                }
            });
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            th.join();
        }
        return n.get();
    }

    static void row(String name, long granted, long allowed) {
        System.out.printf(Locale.ROOT, "| %s | %,d | %.1f%% |%n", name, granted, 100.0 * granted / allowed);
    }

    // ------------------------------------------------------------------ plumbing

    static String arg(String[] args, String name, String dflt) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return dflt;
    }

    static String redisServer() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "redis-server");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IllegalStateException("no redis-server on the PATH: install one (apt-get install redis-server) or pass"
                + " --redis redis://host:port");
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void awaitPort(int port) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 100);
                return;
            } catch (IOException e) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException("redis-server did not start on port " + port);
    }
}
