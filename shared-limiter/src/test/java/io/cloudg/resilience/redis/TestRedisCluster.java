package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.RedisSettings;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.redisson.api.RedissonClient;

/**
 * A real three-master Redis Cluster of embedded redis-server processes on loopback: each node started with
 * {@code cluster-enabled yes}, a third of the 16,384 slots assigned to each with CLUSTER ADDSLOTS, joined
 * with CLUSTER MEET, ready once every node reports {@code cluster_state:ok}. No replicas (a test needs
 * the slot routing, not failover).
 */
final class TestRedisCluster implements AutoCloseable {
    static final int SLOTS = 16384;

    private final List<TestRedis> nodes = new ArrayList<>();

    private TestRedisCluster() {
    }

    static TestRedisCluster start(int masters) {
        TestRedisCluster c = new TestRedisCluster();
        try {
            for (int i = 0; i < masters; i++) {
                c.nodes.add(TestRedis.clusterNode());
            }
            for (int i = 0; i < masters; i++) {
                List<String> cmd = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
                for (int slot = i * SLOTS / masters; slot < (i + 1) * SLOTS / masters; slot++) {
                    cmd.add(Integer.toString(slot));
                }
                expectOk(c.nodes.get(i).port(), cmd);
            }
            for (int i = 1; i < masters; i++) {
                expectOk(c.nodes.get(0).port(), List.of("CLUSTER", "MEET", "127.0.0.1",
                        Integer.toString(c.nodes.get(i).port())));
            }
            c.awaitReady(masters);
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void awaitReady(int masters) {
        long deadline = System.currentTimeMillis() + 30_000;
        String last = "";
        while (System.currentTimeMillis() < deadline) {
            boolean ready = true;
            for (TestRedis n : nodes) {
                last = command(n.port(), List.of("CLUSTER", "INFO"));
                ready &= last.contains("cluster_state:ok") && last.contains("cluster_known_nodes:" + masters);
            }
            if (ready) {
                return;
            }
            try {
                Thread.sleep(50); // waiting for external processes to gossip, not synchronizing the code under test
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("the Redis Cluster did not form within 30 s; last CLUSTER INFO: " + last);
    }

    /** {@code ratelimit.redis} for this cluster: mode cluster, every node's address. */
    RedisSettings settings(String keyPrefix) {
        String urls = nodes.stream().map(TestRedis::url).collect(Collectors.joining(","));
        return RedisSettings.builder().mode(RedisSettings.Mode.CLUSTER).url(urls).keyPrefix(keyPrefix).build();
    }

    /** A client built the way production builds one ({@link RedisClients}). */
    RedissonClient client() {
        return RedisClients.create(settings("cloudg"), name -> null);
    }

    List<TestRedis> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        for (TestRedis n : nodes) {
            n.close();
        }
    }

    private static void expectOk(int port, List<String> args) {
        String reply = command(port, args);
        if (!reply.equals("OK")) {
            throw new IllegalStateException(args.get(0) + " " + args.get(1) + " on port " + port + ": " + reply);
        }
    }

    /** One command over RESP; the reply as text (simple string, bulk string, integer, or "ERR ..."). */
    static String command(int port, List<String> args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            StringBuilder b = new StringBuilder("*").append(args.size()).append("\r\n");
            for (String a : args) {
                b.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
            }
            OutputStream out = s.getOutputStream();
            out.write(b.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            int type = in.read();
            String line = readLine(in);
            switch (type) {
                case '+':
                case ':':
                    return line;
                case '-':
                    return "ERR " + line;
                case '$': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return "";
                    }
                    byte[] data = in.readNBytes(n);
                    return new String(data, StandardCharsets.UTF_8);
                }
                default:
                    throw new IllegalStateException("unexpected RESP reply type " + (char) type + ": " + line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read(); // '\n'
                break;
            }
            b.append((char) c);
        }
        return b.toString();
    }
}
