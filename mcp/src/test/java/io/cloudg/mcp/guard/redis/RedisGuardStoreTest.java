package io.cloudg.mcp.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.mcp.guard.GuardStore;
import io.cloudg.mcp.guard.GuardStoreContract;
import io.cloudg.mcp.guard.GuardUnavailableException;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * The contract on a real redis-server (embedded-redis's 6.2 binary). Redis TIME keeps running during a
 * test, so expectations allow a few seconds of it; the manual clock moves the scripts' time forward through
 * the store's clock offset.
 */
class RedisGuardStoreTest extends GuardStoreContract {
    private static EmbeddedRedis redis;
    private final ManualTimeSource time = new ManualTimeSource();
    private RedissonClient client;

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.shutdown();
        }
    }

    @Override
    protected GuardStore store() {
        client = redis.client();
        return RedisGuardStore.builder(client).keyPrefix("t-" + UUID.randomUUID())
                .clockOffsetMillis(() -> time.nanoTime() / 1_000_000L).describe(redis.address()).build();
    }

    @Override
    protected void advance(Duration d) {
        time.advance(d);
    }

    @Override
    protected long slackMillis() {
        return 5_000;
    }

    @Test
    void scriptsAreLoadedAgainAfterTheServerForgetsThem() {
        GuardStore s = store();
        assertThat(s.tryStart(req("aws/1")).started()).isTrue();
        client.getScript().scriptFlush();
        assertThat(s.tryStart(req("aws/1")).started()).isFalse();
    }

    @Test
    void twoStoresOnOneRedisShareTheState() {
        String prefix = "shared-" + UUID.randomUUID();
        RedissonClient other = redis.client();
        try {
            client = redis.client();
            GuardStore a = RedisGuardStore.builder(client).keyPrefix(prefix).build();
            GuardStore b = RedisGuardStore.builder(other).keyPrefix(prefix).build();
            assertThat(a.tryStart(req("aws/1")).started()).isTrue();
            assertThat(b.tryStart(req("aws/1")).started()).isFalse();
            assertThat(b.snapshot("alice", 1000).inFlight()).hasSize(1);
        } finally {
            other.shutdown();
        }
    }

    @Test
    void anUnreachableRedisIsReportedNotIgnored() {
        RedissonClient dead = EmbeddedRedis.clientFor("redis://127.0.0.1:" + EmbeddedRedis.freePort());
        try {
            GuardStore s = RedisGuardStore.builder(dead).keyPrefix("x").build();
            assertThatThrownBy(() -> s.tryStart(req("aws/1"))).isInstanceOf(GuardUnavailableException.class)
                    .hasMessageContaining("Redis");
        } finally {
            dead.shutdown();
        }
    }
}
