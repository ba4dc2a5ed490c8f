package io.cloudg.bench.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.redis.RedisStateStore;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.config.Config;

/**
 * What reading a fleet's troubled leaves costs (the throttling report, and each worker's gauges every
 * {@code metrics.state_refresh_seconds}): {@code RedisStateStore.troubled()}, which reads the accounts'
 * indexes through the registry of accounts, side by side in one run with the read it replaced, which walked
 * the key set (SCAN of every leaf, then {@code v}, the packed {@code h} and {@code b_trips} of each in
 * pipelined batches of 1,000). Both must find the same troubled leaves. Prints wall time, the calling
 * thread's CPU and Redis's CPU ({@code INFO cpu}) per read, and their ratios.
 *
 * <pre>
 * java -cp "bench/target/benchmarks.jar:bench/target/lib/*" io.cloudg.bench.redis.TroubledReadBench \
 *   --accounts 1000 --leaves 200 --troubled 100 --repeat 5 [--redis redis://host:port]
 * </pre>
 * Without {@code --redis} it starts {@code redis-server} from the PATH on a free loopback port.
 */
public final class TroubledReadBench {
    private static final long SEC = 1_000_000_000L;

    private TroubledReadBench() {
    }

    public static void main(String[] args) throws Exception {
        int accounts = Integer.parseInt(RedisBackendBench.arg(args, "--accounts", "1000"));
        int leaves = Integer.parseInt(RedisBackendBench.arg(args, "--leaves", "200"));
        int troubled = Integer.parseInt(RedisBackendBench.arg(args, "--troubled", "100"));
        int repeat = Integer.parseInt(RedisBackendBench.arg(args, "--repeat", "5"));
        String url = RedisBackendBench.arg(args, "--redis", null);
        if (accounts < 1 || leaves < 1 || troubled < 1 || troubled > accounts * leaves || repeat < 1) {
            throw new IllegalArgumentException("--accounts, --leaves, --repeat must be >= 1 and --troubled between 1"
                    + " and accounts x leaves, but were " + accounts + ", " + leaves + ", " + repeat + ", " + troubled);
        }
        Process server = null;
        if (url == null) {
            int port = RedisBackendBench.freePort();
            server = new ProcessBuilder(RedisBackendBench.redisServer(), "--port", Integer.toString(port), "--save", "",
                    "--appendonly", "no").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            RedisBackendBench.awaitPort(port);
            url = "redis://127.0.0.1:" + port;
        }
        Config c = new Config();
        c.useSingleServer().setAddress(url);
        RedissonClient client = Redisson.create(c);
        RedisStateStore store = RedisStateStore.builder(client).keyPrefix("troubled-bench").build();
        try {
            store.clear();
            int marked = fill(store, accounts, leaves, troubled);
            System.out.printf(Locale.ROOT, "%,d accounts x %,d leaves, %,d of them throttled (slowed); Redis keys: %,d%n",
                    accounts, leaves, marked, client.getKeys().count());
            System.out.println("| turn | read | troubled leaves found | wall (s) | calling thread CPU (s) | Redis CPU (s) |");
            System.out.println("|---|---|---|---|---|---|");
            double[] sum = new double[6];
            for (int r = 1; r <= repeat; r++) {
                double[] a = measure(client, "indexes (troubled())", r, () -> store.troubled().leaves().size(), marked);
                double[] b = measure(client, "every leaf (before)", r, () -> everyLeaf(client, store), marked);
                for (int i = 0; i < 3; i++) {
                    sum[i] += a[i];
                    sum[3 + i] += b[i];
                }
            }
            System.out.printf(Locale.ROOT, "indexes / every leaf, sums over the turns: wall %.3f, calling thread CPU %.3f,"
                    + " Redis CPU %.3f%n", sum[0] / sum[3], sum[1] / sum[4], sum[2] / sum[5]);
        } finally {
            store.clear();
            store.close();
            client.shutdown();
            if (server != null) {
                server.destroy();
            }
        }
    }

    /** Admits every leaf once (16 threads) and throttles {@code troubled} of them, spread over the accounts. */
    private static int fill(RedisStateStore store, int accounts, int leaves, int troubled) throws Exception {
        LeafLimit limit = new LeafLimit(20, 100, 0.2, true);
        BreakerLimit breaker = new BreakerLimit(5, 60 * SEC, 600 * SEC, 30 * SEC);
        long every = Math.max(1, (long) accounts * leaves / troubled);
        ExecutorService ex = Executors.newFixedThreadPool(16);
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < accounts; i++) {
            final int ai = i;
            fs.add(ex.submit(() -> {
                int n = 0;
                Scope acct = Scope.account("aws", String.format(Locale.ROOT, "3%011d", ai));
                for (int j = 0; j < leaves; j++) {
                    Scope leaf = Scope.of("aws", acct.account(), "region-" + (j % 17), "ec2", "Operation" + j);
                    store.admit(new AdmitRequest("aws", null, acct, null, leaf, limit, breaker, null, 1));
                    if (((long) ai * leaves + j) % every == 0) {
                        store.record(new OutcomeRequest(leaf, limit, AttemptOutcome.THROTTLED, -1, breaker,
                                CallVerdict.NONE, 0, null));
                        n++;
                    }
                }
                return n;
            }));
        }
        int marked = 0;
        for (Future<Integer> f : fs) {
            marked += f.get();
        }
        ex.shutdown();
        return marked;
    }

    private interface Read {
        int run() throws Exception;
    }

    private static double[] measure(RedissonClient client, String name, int turn, Read read, int expected)
            throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double redis0 = redisCpu(client);
        long cpu0 = mx.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        int found = read.run();
        long w1 = System.nanoTime();
        long cpu1 = mx.getCurrentThreadCpuTime();
        double redis = redisCpu(client) - redis0;
        if (found != expected) {
            throw new IllegalStateException(name + " found " + found + " troubled leaves, but " + expected + " were throttled");
        }
        double[] out = {(w1 - w0) / 1e9, (cpu1 - cpu0) / 1e9, redis};
        System.out.printf(Locale.ROOT, "| %d | %s | %,d | %.3f | %.3f | %.3f |%n", turn, name, found, out[0], out[1], out[2]);
        return out;
    }

    private static double redisCpu(RedissonClient client) {
        Map<String, String> info = client.getRedisNodes(org.redisson.api.redisnode.RedisNodes.SINGLE).getInstance()
                .info(org.redisson.api.redisnode.RedisNode.InfoSection.CPU);
        return Double.parseDouble(info.get("used_cpu_user")) + Double.parseDouble(info.get("used_cpu_sys"));
    }

    private static final Set<byte[]> FIELDS = Set.of(bytes("v"), bytes("h"), bytes("b_trips"));

    /** The read before the indexes: every leaf key (SCAN), three fields of each, a batch of 1,000 at a time. */
    private static int everyLeaf(RedissonClient client, RedisStateStore store) {
        int found = 0;
        Iterator<String> it = client.getKeys().getKeysStreamByPattern(store.keys().leafPattern(), 500).iterator();
        List<String> batch = new ArrayList<>(1000);
        while (it.hasNext()) {
            batch.add(it.next());
            if (batch.size() == 1000 || !it.hasNext()) {
                RBatch b = client.createBatch(BatchOptions.defaults());
                List<CompletableFuture<Map<byte[], byte[]>>> fs = new ArrayList<>();
                for (String k : batch) {
                    fs.add(b.<byte[], byte[]>getMap(k, ByteArrayCodec.INSTANCE).getAllAsync(FIELDS).toCompletableFuture());
                }
                b.execute();
                for (CompletableFuture<Map<byte[], byte[]>> f : fs) {
                    if (troubled(f.join())) {
                        found++;
                    }
                }
                batch.clear();
            }
        }
        return found;
    }

    /** A leaf below its ceiling, or with a breaker not closed or tripped (the packed h: 9 little-endian doubles). */
    private static boolean troubled(Map<byte[], byte[]> fields) {
        byte[] h = null;
        double trips = 0;
        for (Map.Entry<byte[], byte[]> e : fields.entrySet()) {
            String f = new String(e.getKey(), StandardCharsets.UTF_8);
            if (f.equals("h")) {
                h = e.getValue();
            } else if (f.equals("b_trips")) {
                String t = new String(e.getValue(), StandardCharsets.UTF_8);
                trips = t.equals("n") ? 0 : Double.parseDouble(t);
            }
        }
        if (h == null) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        double rate = b.getDouble(16);
        double ceiling = b.getDouble(24);
        double phase = b.getDouble(48);
        return rate < ceiling || (!Double.isNaN(phase) && phase != 0) || trips > 0;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
