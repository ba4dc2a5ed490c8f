package io.cloudg.mcp.guard.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.embedded.RedisServer;

/** A real redis-server on a free loopback port (embedded-redis's binary), for tests. */
public final class EmbeddedRedis implements AutoCloseable {
    private final RedisServer server;
    private final int port;

    private EmbeddedRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
    }

    public static EmbeddedRedis start() {
        int port = freePort();
        try {
            RedisServer s = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                    .setting("appendonly no").build();
            s.start();
            return new EmbeddedRedis(s, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server on port " + port, e);
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String address() {
        return "redis://127.0.0.1:" + port;
    }

    public RedissonClient client() {
        return clientFor(address());
    }

    public static RedissonClient clientFor(String address) {
        Config c = new Config();
        c.setCodec(StringCodec.INSTANCE);
        c.setLazyInitialization(true);
        c.useSingleServer().setAddress(address).setConnectionPoolSize(4).setConnectionMinimumIdleSize(1)
                .setRetryAttempts(0).setConnectTimeout(1000).setTimeout(2000);
        return Redisson.create(c);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
