package io.cloudg.resilience.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.embedded.RedisServer;

/**
 * A real redis-server for tests, on a random free loopback port: the embedded-redis binary (6.2) or, when
 * installed, the system's {@code redis-server} (Debian's 7.x). Can be stopped and started again on the
 * same port and data directory (for outage and AOF tests).
 */
final class TestRedis implements AutoCloseable {
    enum Binary { EMBEDDED, SYSTEM }

    private final Binary binary;
    private final int port;
    private final boolean aof;
    private final Path dir;
    private final List<String> extra;
    private RedisServer embedded;
    private Process system;

    private TestRedis(Binary binary, boolean aof) {
        this(binary, aof, freePort(), List.of());
    }

    private TestRedis(Binary binary, boolean aof, int port, List<String> extra) {
        this.binary = binary;
        this.port = port;
        this.aof = aof;
        this.extra = List.copyOf(extra);
        try {
            this.dir = Files.createTempDirectory("cloudg-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TestRedis start(Binary binary, boolean aof) {
        TestRedis r = new TestRedis(binary, aof);
        r.start();
        return r;
    }

    static TestRedis embedded() {
        return start(Binary.EMBEDDED, false);
    }

    /** An embedded redis-server with more settings, e.g. {@code requirepass s3cret}. */
    static TestRedis embedded(String... settings) {
        TestRedis r = new TestRedis(Binary.EMBEDDED, false, freePort(), List.of(settings));
        r.start();
        return r;
    }

    /**
     * An embedded redis-server started as a Redis Cluster node (no slots yet: {@link TestRedisCluster}
     * joins nodes into a cluster). Its port leaves room for the cluster bus at port + 10000.
     */
    static TestRedis clusterNode() {
        int port;
        do {
            port = freePort();
        } while (port > 55000 || !portFree(port + 10000));
        TestRedis r = new TestRedis(Binary.EMBEDDED, false, port, List.of("cluster-enabled yes",
                "cluster-config-file nodes.conf", "cluster-node-timeout 5000"));
        r.start();
        return r;
    }

    private static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The system's redis-server, if one is on the PATH. */
    static Optional<Path> systemBinary() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d, "redis-server");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    Binary binary() {
        return binary;
    }

    private List<String> settings() {
        List<String> s = new ArrayList<>();
        s.add("save \"\"");
        s.add("dir " + dir);
        if (aof) {
            s.add("appendonly yes");
            s.add("appendfsync always");
        } else {
            s.add("appendonly no");
        }
        s.addAll(extra);
        return s;
    }

    synchronized void start() {
        try {
            if (binary == Binary.EMBEDDED) {
                var b = RedisServer.newRedisServer().port(port).bind("127.0.0.1");
                for (String s : settings()) {
                    b.setting(s);
                }
                embedded = b.build();
                embedded.start();
            } else {
                List<String> cmd = new ArrayList<>(List.of(systemBinary().orElseThrow().toString(), "--port",
                        Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString(), "--save", ""));
                cmd.addAll(aof ? List.of("--appendonly", "yes", "--appendfsync", "always") : List.of("--appendonly", "no"));
                system = new ProcessBuilder(cmd).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("redis.log").toFile()).start();
            }
            awaitPort(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the server (SIGTERM: with AOF on, everything written so far is on disk). */
    synchronized void stop() {
        try {
            if (embedded != null) {
                embedded.stop();
                embedded = null;
            }
            if (system != null) {
                system.destroy();
                system.waitFor(10, TimeUnit.SECONDS);
                system = null;
            }
            awaitPort(false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitPort(boolean open) {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            boolean isOpen;
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                isOpen = true;
            } catch (IOException e) {
                isOpen = false;
            }
            if (isOpen == open) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new IllegalStateException("redis-server on port " + port + " did not " + (open ? "start" : "stop"));
    }

    /** A plain Redisson client for this server (tests' own checks). */
    RedissonClient client() {
        Config c = new Config();
        c.useSingleServer().setAddress(url()).setConnectionMinimumIdleSize(1).setConnectionPoolSize(8)
                .setRetryAttempts(1).setTimeout(2000);
        return Redisson.create(c);
    }

    @Override
    public void close() {
        stop();
    }
}
