package io.cloudg.bench.redis;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.redisson.Bucket4jRedisson;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Governed calls per second through one Redis, and the latency the governor adds, next to plain
 * acquisitions of other distributed limiters on the same server in the same run: Redisson's
 * {@code RRateLimiter.tryAcquire()} ({@code rrl}), Bucket4j's {@code tryConsume(1)} over Redisson
 * ({@code b4j}) and over Lettuce ({@code b4jl}, one shared connection: Bucket4j's strongest Redis
 * transport), and a bare token bucket in Lua on Redis {@code TIME}, one {@code EVALSHA} per acquisition over
 * one shared, pipelined Lettuce connection ({@code lua}: the transport's ceiling).
 *
 * <p>Throughput: {@code --threads} callers (64) over {@code --keys} keys (1,000), then (unless
 * {@code --no-hot}) all callers on one key (the hot leaf), limits far above the offered load so that nothing
 * waits; a cloudg call is a whole governed call ({@code Governor.call} with a no-op request: admission with
 * breaker, leaf, bulkhead slot, then the outcome with AIMD, breaker and release), the others one
 * acquisition. Latency is per call/acquisition, measured after the warm-up. Each row also shows the CPU
 * spent per call after the warm-up, by this client process (all its threads) and by Redis
 * ({@code INFO cpu}, user + system), and the machine's load average at the end of the row. With
 * {@code --runs N} the contenders take turns N times (cloudg, RRateLimiter, ..., cloudg, ...) and a table of
 * medians follows the per-run rows, then cloudg's ratios to each contender within each run and their medians.
 *
 * <p>At a caller's pace: {@code --pace-ms N} makes each caller pause N ms after each call, as a collector thread
 * waits for its HTTP answer between governed calls; most calls then go out alone, and the CPU per call shows
 * what a transport's hand-offs cost at a map's pace rather than under saturation. Two more contenders serve
 * that comparison: {@code luablock}, the bare Lua bucket over a blocking socket per caller (no event loop;
 * {@code luablockt}: the same socket read with a timeout, which the JDK does as a non-blocking read and a poll), and
 * {@code none}, no call at all (the loop and the pause's own CPU, to subtract).
 *
 * <p>Accuracy: 16 callers on one key limited to 100/s with a burst of 100 for 10 s; a limiter may grant
 * (cloudg: send) at most 1,100 in the window, and at most 100/s once the initial burst is spent, which the
 * second column measures over seconds 2 to 10 of the window.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.cloudg.bench.redis.RedisBackendBench [--redis redis://host:port]
 *      [--seconds 10] [--warmup 3] [--threads 64] [--keys 1000] [--runs 1] [--only cloudg,rrl,b4j,b4jl,lua]
 *      [--no-hot] [--no-accuracy] [--pool 16] [--pipeline 64] [--pace-ms 0]
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

    record Result(String name, double callsPerSecond, long p50Micros, long p99Micros, long errors,
                  double clientCpuMicros, double redisCpuMicros, double load) {
    }

    static int pool = 16;
    static int pipeline = 64;
    /** Each caller's pause after each call ({@code --pace-ms}): 0 = back to back. */
    static long paceNanos = 0;
    static List<String> only = List.of("cloudg", "rrl", "b4j", "b4jl", "lua");
    /** Row names of the contenders, by their {@code --only} key. */
    static final Map<String, String> NAMES = new LinkedHashMap<>();

    static {
        NAMES.put("cloudg", "cloudg governed call (Redis backend)");
        NAMES.put("rrl", "Redisson RRateLimiter.tryAcquire");
        NAMES.put("b4j", "Bucket4j 8.14 over Redisson (CAS) tryConsume(1)");
        NAMES.put("b4jl", "Bucket4j 8.14 over Lettuce (CAS) tryConsume(1)");
        NAMES.put("lua", "bare Lua bucket, 1 EVALSHA over 1 pipelined Lettuce connection");
        NAMES.put("luablock", "bare Lua bucket, 1 EVALSHA over a blocking socket per caller");
        NAMES.put("luablockt", "bare Lua bucket, 1 EVALSHA over a blocking socket per caller, read with a timeout");
        NAMES.put("none", "no call (the callers' own loop and pause)");
    }
    static String redisUrl;

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        List<String> flags = Arrays.asList(args);
        pool = Integer.parseInt(arg(args, "--pool", "16"));
        pipeline = Integer.parseInt(arg(args, "--pipeline", "64"));
        String pace = arg(args, "--pace-ms", "0");
        try {
            paceNanos = Long.parseLong(pace) * 1_000_000L;
        } catch (NumberFormatException e) {
            paceNanos = -1;
        }
        if (paceNanos < 0) {
            throw new IllegalArgumentException("--pace-ms must be a whole number of milliseconds, at least 0, but was \"" + pace + "\"");
        }
        if (flags.contains("--only-cloudg")) {
            only = List.of("cloudg");
        }
        String onlyArg = arg(args, "--only", null);
        if (onlyArg != null) {
            only = Arrays.asList(onlyArg.split(","));
        }
        boolean accuracy = !flags.contains("--no-accuracy");
        boolean hot = !flags.contains("--no-hot");
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
        redisUrl = url;
        System.out.printf(Locale.ROOT, "Redis %s (%s), %d callers over %d keys, %d s after %d s warm-up, %d run(s);"
                + " %d cores, load average %.1f at start%n", url, redisVersion(), threads, keys, seconds, warmup, runs,
                Runtime.getRuntime().availableProcessors(), loadAverage());
        try {
            List<Result> all = new ArrayList<>();
            printHeader();
            for (int r = 1; r <= runs; r++) {
                all.addAll(throughput(url, threads, keys, seconds, warmup, r, hot));
            }
            if (runs > 1) {
                System.out.println();
                System.out.println("Medians of " + runs + " runs:");
                printHeader();
                for (String name : all.stream().map(Result::name).distinct().toList()) {
                    List<Result> rs = all.stream().filter(x -> x.name.equals(name)).toList();
                    print(new Result(name, median(rs, Result::callsPerSecond), (long) median(rs, x -> x.p50Micros),
                            (long) median(rs, x -> x.p99Micros), rs.stream().mapToLong(Result::errors).sum(),
                            median(rs, Result::clientCpuMicros), median(rs, Result::redisCpuMicros),
                            median(rs, Result::load)), "median");
                }
            }
            ratios(all, runs);
            if (accuracy) {
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
        RedisSettings s = RedisSettings.builder().url(url).keyPrefix(prefix).timeoutMs(3000).poolSize(pool)
                .minIdle(pool).pipelineMaxBatch(pipeline).build();
        RateLimitConfig c = RateLimitConfig.builder()
                .aws(a -> a.service("ec2", rate, burst).maxConcurrency(maxConcurrency))
                .build().withBackend(RateLimitConfig.Backend.REDIS, s);
        return io.cloudg.Governors.create(c);
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

    /** Bucket4j over one shared Lettuce connection (its compare-and-swap proxy manager). */
    static ProxyManager<String> bucket4jLettuce(StatefulRedisConnection<String, byte[]> connection) {
        return Bucket4jLettuce.casBasedBuilder(connection).build();
    }

    static StatefulRedisConnection<String, byte[]> lettuceBytes(RedisClient client) {
        return client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
    }

    /**
     * The transport's ceiling: a minimal token bucket refilled from Redis {@code TIME}, one script run per
     * acquisition (ARGV: rate per second, burst). Returns 1 if a token was taken.
     */
    static final String BARE_BUCKET = String.join("\n",
            "local t = redis.call('TIME')",
            "local now = tonumber(t[1]) * 1000000 + tonumber(t[2])",
            "local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])",
            "local h = redis.call('HMGET', KEYS[1], 'tokens', 'at')",
            "local tokens, at = tonumber(h[1]), tonumber(h[2])",
            "if tokens == nil then tokens, at = burst, now end",
            "if now > at then tokens = math.min(burst, tokens + (now - at) * rate / 1000000) at = now end",
            "local ok = 0",
            "if tokens >= 1 then tokens = tokens - 1 ok = 1 end",
            "redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', string.format('%d', at))",
            "redis.call('PEXPIRE', KEYS[1], 60000)",
            "return ok");

    /** The bare Lua bucket over one shared Lettuce connection: one EVALSHA per acquisition. */
    static Op bareLua(RedisCommands<String, String> sync, String prefix, long rate, long burst) {
        String sha = sync.scriptLoad(BARE_BUCKET);
        String r = Long.toString(rate);
        String b = Long.toString(burst);
        return k -> {
            Long ok = sync.evalsha(sha, ScriptOutputType.INTEGER, new String[] {prefix + k}, r, b);
            return ok != null && ok == 1L;
        };
    }

    /**
     * The bare Lua bucket over a blocking socket of each calling thread: the caller writes {@code EVALSHA} and
     * reads the answer itself, with no event loop between it and the socket (one wake-up per call instead of a
     * hand-off to an I/O thread and back). Integer answers only; any other answer fails the call.
     */
    static final class BlockingLua implements AutoCloseable {
        private final String host;
        private final int port;
        private final byte[] sha;
        private final List<Socket> opened = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final ThreadLocal<Socket> socket = new ThreadLocal<>();
        private final int timeoutMs;

        /** {@code timeoutMs} 0: reads block without a timeout; else the JDK's timed read (non-blocking read, poll). */
        BlockingLua(String url, String sha, int timeoutMs) {
            this.timeoutMs = timeoutMs;
            URI u = URI.create(url);
            this.host = u.getHost();
            this.port = u.getPort();
            this.sha = sha.getBytes(StandardCharsets.US_ASCII);
        }

        boolean take(String key, long rate, long burst) throws IOException {
            Socket s = socket.get();
            if (s == null) {
                s = new Socket(host, port);
                s.setTcpNoDelay(true);
                s.setSoTimeout(timeoutMs);
                socket.set(s);
                opened.add(s);
            }
            byte[][] parts = {"EVALSHA".getBytes(StandardCharsets.US_ASCII), sha, {'1'},
                    key.getBytes(StandardCharsets.UTF_8), Long.toString(rate).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(burst).getBytes(StandardCharsets.US_ASCII)};
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(128);
            out.write(('*' + Integer.toString(parts.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte[] p : parts) {
                out.write(('$' + Integer.toString(p.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(p);
                out.write('\r');
                out.write('\n');
            }
            s.getOutputStream().write(out.toByteArray());
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("Redis closed the connection");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            if (line.charAt(0) != ':') {
                throw new IOException("unexpected answer: " + line);
            }
            return Long.parseLong(line.substring(1)) == 1L;
        }

        @Override
        public void close() throws IOException {
            for (Socket s : opened) {
                s.close();
            }
        }
    }

    /** Bucket4j's {@code tryConsume(1)} on key {@code prefix + k}, buckets of {@code capacity} refilled per second. */
    static Op bucket4jOp(ProxyManager<String> pm, String prefix, long capacity, long perSecond) {
        BucketConfiguration cfg = bucketConfig(capacity, perSecond);
        return k -> pm.getProxy(prefix + k, () -> cfg).tryConsume(1);
    }

    static BucketConfiguration bucketConfig(long capacity, long perSecond) {
        return BucketConfiguration.builder()
                .addLimit(l -> l.capacity(capacity).refillGreedy(perSecond, Duration.ofSeconds(1))).build();
    }

    // ------------------------------------------------------------------ throughput

    /**
     * One run: every contender over {@code keys} keys, then (with {@code hot}) every contender with all
     * callers on one key.
     */
    static List<Result> throughput(String url, int threads, int keys, int seconds, int warmup, int run, boolean hot)
            throws Exception {
        List<Result> results = new ArrayList<>();
        String label = "run " + run;
        boolean needRedisson = only.contains("rrl") || only.contains("b4j");
        boolean needLettuce = only.contains("b4jl") || only.contains("lua") || only.contains("luablock")
                || only.contains("luablockt");
        RedissonClient client = needRedisson ? redisson(url) : null;
        RedisClient lettuce = needLettuce ? RedisClient.create(url) : null;
        StatefulRedisConnection<String, byte[]> b4jlConnection = needLettuce ? lettuceBytes(lettuce) : null;
        StatefulRedisConnection<String, String> luaConnection = needLettuce ? lettuce.connect() : null;
        try {
            for (int n : hot ? new int[] {keys, 1} : new int[] {keys}) {
                String suffix = n == 1 ? " (hot leaf)" : "";
                String tag = "bench" + (System.nanoTime() % 100000);
                for (String c : only) {
                    String name = NAMES.getOrDefault(c, c) + suffix;
                    switch (c) {
                        case "cloudg":
                            try (Governor g = cloudg(url, tag, 1_000_000, 1_000_000, 100_000)) {
                                Scope[] leaves = leaves(n);
                                results.add(print(measure(name, threads, n, seconds, warmup, k -> {
                                    g.call(leaves[k], () -> Boolean.TRUE);
                                    return true;
                                }), label));
                                g.store().clear();
                            }
                            break;
                        case "rrl": {
                            RRateLimiter[] limiters = new RRateLimiter[n];
                            for (int i = 0; i < n; i++) {
                                limiters[i] = client.getRateLimiter(tag + ":rrl:" + i);
                                limiters[i].trySetRate(RateType.OVERALL, 1_000_000, Duration.ofSeconds(1));
                            }
                            results.add(print(measure(name, threads, n, seconds, warmup, k -> limiters[k].tryAcquire()),
                                    label));
                            break;
                        }
                        case "b4j":
                            results.add(print(measure(name, threads, n, seconds, warmup,
                                    bucket4jOp(bucket4j(client), tag + ":b4j:", 1_000_000, 1_000_000)), label));
                            break;
                        case "b4jl":
                            results.add(print(measure(name, threads, n, seconds, warmup,
                                    bucket4jOp(bucket4jLettuce(b4jlConnection), tag + ":b4jl:", 1_000_000, 1_000_000)),
                                    label));
                            break;
                        case "lua":
                            results.add(print(measure(name, threads, n, seconds, warmup,
                                    bareLua(luaConnection.sync(), tag + ":lua:", 1_000_000, 1_000_000)), label));
                            break;
                        case "luablock":
                        case "luablockt":
                            try (BlockingLua bl = new BlockingLua(url, luaConnection.sync().scriptLoad(BARE_BUCKET),
                                    c.equals("luablockt") ? 3000 : 0)) {
                                String prefix = tag + ":lua:";
                                results.add(print(measure(name, threads, n, seconds, warmup,
                                        k -> bl.take(prefix + k, 1_000_000, 1_000_000)), label));
                            }
                            break;
                        case "none":
                            results.add(print(measure(name, threads, n, seconds, warmup, k -> true), label));
                            break;
                        default:
                            throw new IllegalArgumentException("unknown contender " + c + ", known: " + NAMES.keySet());
                    }
                }
                if (client != null) {
                    client.getKeys().deleteByPattern(tag + ":*");
                }
                if (luaConnection != null) {
                    List<String> left = luaConnection.sync().keys(tag + ":*");
                    for (int i = 0; i < left.size(); i += 500) {
                        luaConnection.sync().del(left.subList(i, Math.min(left.size(), i + 500)).toArray(new String[0]));
                    }
                }
            }
        } finally {
            if (client != null) {
                client.shutdown();
            }
            if (lettuce != null) {
                b4jlConnection.close();
                luaConnection.close();
                lettuce.shutdown();
            }
        }
        return results;
    }

    /**
     * cloudg's throughput over each contender's, and Redis CPU per call against RRateLimiter's, within each
     * run (the machine is shared: ratios from one run are what compares), then their medians.
     */
    static void ratios(List<Result> all, int runs) {
        if (!only.contains("cloudg")) {
            return;
        }
        System.out.println();
        System.out.println("cloudg's ratios, run by run (throughput: cloudg / contender; Redis CPU: cloudg / RRateLimiter):");
        System.out.println("| case | against | ratio per run | median |");
        System.out.println("|---|---|---|---|");
        int perRun = all.size() / runs;
        for (String suffix : new String[] {"", " (hot leaf)"}) {
            String cloudg = NAMES.get("cloudg") + suffix;
            for (String c : only) {
                if (c.equals("cloudg")) {
                    continue;
                }
                String other = NAMES.get(c) + suffix;
                List<Double> rs = new ArrayList<>();
                List<Double> cpu = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    List<Result> run = all.subList(r * perRun, (r + 1) * perRun);
                    Result a = find(run, cloudg);
                    Result b = find(run, other);
                    if (a != null && b != null) {
                        rs.add(a.callsPerSecond / b.callsPerSecond);
                        cpu.add(a.redisCpuMicros / b.redisCpuMicros);
                    }
                }
                if (rs.isEmpty()) {
                    continue;
                }
                String label = suffix.isEmpty() ? "1,000 keys" : "hot leaf";
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %.2fx |%n", label, c, join(rs), medianOf(rs));
                if (c.equals("rrl")) {
                    System.out.printf(Locale.ROOT, "| %s | Redis CPU/call vs rrl | %s | %.2fx |%n", label, join(cpu),
                            medianOf(cpu));
                }
            }
        }
    }

    static Result find(List<Result> rs, String name) {
        return rs.stream().filter(x -> x.name.equals(name)).findFirst().orElse(null);
    }

    static String join(List<Double> v) {
        StringBuilder b = new StringBuilder();
        for (double d : v) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", d));
        }
        return b.toString();
    }

    static double medianOf(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static void printHeader() {
        System.out.println("| run | what | calls/s | p50 us | p99 us | client CPU us/call | Redis CPU us/call | load |"
                + " errors |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
    }

    static Result print(Result r, String run) {
        System.out.printf(Locale.ROOT, "| %s | %s | %,.0f | %,d | %,d | %.1f | %.1f | %.1f | %d |%n", run, r.name,
                r.callsPerSecond, r.p50Micros, r.p99Micros, r.clientCpuMicros, r.redisCpuMicros, r.load, r.errors);
        return r;
    }

    static double median(List<Result> rs, ToDoubleFunction<Result> f) {
        double[] v = rs.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
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
                    if (paceNanos > 0) {
                        LockSupport.parkNanos(paceNanos); // the caller's own work between calls (a map: an HTTP call)
                    }
                }
                samples[id] = lat;
                counts[id] = n;
            });
            th.start();
            ts.add(th);
        }
        long untilMeasured = measureFrom - System.nanoTime();
        if (untilMeasured > 0) {
            Thread.sleep(untilMeasured / 1_000_000, (int) (untilMeasured % 1_000_000));
        }
        long cpu0 = processCpuNanos();
        double redis0 = redisCpuSeconds();
        for (Thread th : ts) {
            th.join();
        }
        long cpu1 = processCpuNanos();
        double redis1 = redisCpuSeconds();
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
        double clientCpu = total == 0 ? Double.NaN : (cpu1 - cpu0) / 1e3 / total;
        double redisCpu = total == 0 ? Double.NaN : (redis1 - redis0) * 1e6 / total;
        return new Result(name, total / (double) seconds, p50, p99, errors.get(), clientCpu, redisCpu, loadAverage());
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }

    /** A section of Redis {@code INFO} (one plain connection, no client library), or empty if unreadable. */
    static String info(String section) {
        URI u = URI.create(redisUrl);
        try (Socket s = new Socket(u.getHost(), u.getPort())) {
            s.setSoTimeout(3000);
            s.getOutputStream().write(("INFO " + section + "\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            StringBuilder head = new StringBuilder();
            int c;
            while ((c = in.read()) != '\n' && c >= 0) {
                head.append((char) c);
            }
            if (head.length() == 0 || head.charAt(0) != '$') {
                return "";
            }
            return new String(in.readNBytes(Integer.parseInt(head.substring(1).trim())), StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Redis's own CPU seconds so far (user + system), or NaN if they cannot be read. */
    static double redisCpuSeconds() {
        double t = 0;
        boolean found = false;
        for (String line : info("cpu").split("\r\n")) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                t += Double.parseDouble(line.substring(line.indexOf(':') + 1));
                found = true;
            }
        }
        return found ? t : Double.NaN;
    }

    static String redisVersion() {
        for (String line : info("server").split("\r\n")) {
            if (line.startsWith("redis_version:")) {
                return "redis " + line.substring(line.indexOf(':') + 1);
            }
        }
        return "redis ?";
    }

    // ------------------------------------------------------------------ accuracy

    static void accuracy(String url) throws Exception {
        int threads = 16;
        long windowMs = 10_000;
        long allowed = 100 * 10 + 100;
        String run = Long.toString(System.nanoTime() % 100000);
        System.out.println();
        System.out.println("Accuracy: one key at 100/s, burst 100, 16 callers, 10 s; at most " + allowed
                + " allowed in the window, at most 100/s once the burst is spent");
        System.out.println("| what | granted | of allowed | rate in seconds 2-10 |");
        System.out.println("|---|---|---|---|");
        try (Governor g = cloudg(url, "acc" + run, 100, 100, 1000)) {
            Scope leaf = Scope.of("aws", "100000000000", "us-east-1", "ec2", "DescribeVolumes");
            long start = System.currentTimeMillis() + 200;
            ConcurrentLinkedQueue<Long> at = granted(threads, start, start + windowMs, () -> {
                long[] sent = new long[1];
                g.call(leaf, () -> sent[0] = System.currentTimeMillis());
                return sent[0];
            });
            row("cloudg governed call (sends inside the window)", at, start, windowMs, allowed);
            g.store().clear();
        }
        RedissonClient client = redisson(url);
        RedisClient lettuce = RedisClient.create(url);
        StatefulRedisConnection<String, byte[]> bytes = lettuceBytes(lettuce);
        StatefulRedisConnection<String, String> strings = lettuce.connect();
        try {
            RRateLimiter rl = client.getRateLimiter("acc" + run + ":rrl");
            rl.trySetRate(RateType.OVERALL, 100, Duration.ofSeconds(1));
            long start = System.currentTimeMillis() + 200;
            row("Redisson RRateLimiter.tryAcquire", granted(threads, start, start + windowMs,
                    () -> rl.tryAcquire() ? System.currentTimeMillis() : -1), start, windowMs, allowed);
            accuracyRow("Bucket4j over Redisson tryConsume(1)", threads, windowMs, allowed,
                    bucket4jOp(bucket4j(client), "acc" + run + ":b4j:", 100, 100));
            accuracyRow("Bucket4j over Lettuce tryConsume(1)", threads, windowMs, allowed,
                    bucket4jOp(bucket4jLettuce(bytes), "acc" + run + ":b4jl:", 100, 100));
            accuracyRow("bare Lua bucket (one EVALSHA)", threads, windowMs, allowed,
                    bareLua(strings.sync(), "acc" + run + ":lua:", 100, 100));
            client.getKeys().deleteByPattern("acc" + run + ":*");
        } finally {
            client.shutdown();
            bytes.close();
            strings.close();
            lettuce.shutdown();
        }
    }

    /** One accuracy row: {@code threads} callers of {@code op} on key 0 for {@code windowMs}. */
    static void accuracyRow(String name, int threads, long windowMs, long allowed, Op op) throws Exception {
        long start = System.currentTimeMillis() + 200;
        row(name, granted(threads, start, start + windowMs, () -> op.run(0) ? System.currentTimeMillis() : -1), start,
                windowMs, allowed);
    }

    /** One attempt: the time (epoch ms) it was granted (cloudg: sent), or -1. */
    interface Grant {
        long run() throws Exception;
    }

    static ConcurrentLinkedQueue<Long> granted(int threads, long startMs, long endMs, Grant op) throws Exception {
        ConcurrentLinkedQueue<Long> at = new ConcurrentLinkedQueue<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                while (System.currentTimeMillis() < startMs) {
                    LockSupport.parkNanos(1_000_000);
                }
                while (System.currentTimeMillis() < endMs) {
                    try {
                        long when = op.run();
                        if (when >= startMs && when < endMs) {
                            at.add(when);
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
        return at;
    }

    static void row(String name, ConcurrentLinkedQueue<Long> at, long startMs, long windowMs, long allowed) {
        long total = at.size();
        long steady = at.stream().filter(t -> t >= startMs + 1000 && t < startMs + windowMs).count();
        System.out.printf(Locale.ROOT, "| %s | %,d | %.1f%% | %.1f/s |%n", name, total, 100.0 * total / allowed,
                steady / ((windowMs - 1000) / 1000.0));
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
