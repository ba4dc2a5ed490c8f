package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.redisson.api.RedissonClient;
import redis.embedded.RedisSentinel;

/**
 * The contract suite, unchanged, through Redis Sentinel: an embedded redis-server master watched by an
 * embedded sentinel, the client built from {@code ratelimit.redis.mode: sentinel} with only the
 * sentinel's address and the master's name, as production builds it.
 */
class RedisStateStoreSentinelContractTest extends StateStoreContract {
    static final String MASTER = "cloudg-master";
    private static TestRedis master;
    private static RedisSentinel sentinel;
    private static RedissonClient client;
    private static RedisSettings settings;

    @BeforeAll
    static void startSentinel() throws Exception {
        master = TestRedis.embedded();
        int port = TestRedis.freePort();
        sentinel = RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(port).masterPort(master.port())
                .masterName(MASTER).quorumSize(1).build();
        sentinel.start();
        settings = RedisSettings.builder().mode(RedisSettings.Mode.SENTINEL)
                .url("redis://127.0.0.1:" + port).sentinelMaster(MASTER).keyPrefix("contracts").build();
        client = RedisClients.create(settings, name -> null);
    }

    @AfterAll
    static void stopSentinel() throws Exception {
        if (client != null) {
            client.shutdown();
        }
        if (sentinel != null) {
            sentinel.stop();
        }
        if (master != null) {
            master.close();
        }
    }

    @Override
    protected StateStore newStore(ManualTimeSource time) {
        return RedisStateStore.builder(client).keyPrefix("contracts").clock(StoreClock.injected(time)).build();
    }

    /** The start-up check asks the sentinel, and the governor every command builds starts through it. */
    @org.junit.jupiter.api.Test
    void theStartUpCheckPassesThroughTheSentinel() {
        RedisPreflight.check(settings, name -> null);
        io.cloudg.resilience.config.RateLimitConfig config = io.cloudg.resilience.config.RateLimitConfig.builder()
                .backend(io.cloudg.resilience.config.RateLimitConfig.Backend.REDIS).redis(settings).build();
        try (io.cloudg.resilience.Governor g = io.cloudg.resilience.Governor.builder().config(config)
                .store(StateStores.reachable(settings, name -> null, io.cloudg.resilience.time.TimeSource.system())).build()) {
            org.assertj.core.api.Assertions.assertThat(g).isNotNull();
        }
    }
}
