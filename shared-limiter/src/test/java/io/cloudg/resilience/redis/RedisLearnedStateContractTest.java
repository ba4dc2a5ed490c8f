package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.LearnedStateContract;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.ManualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.redisson.api.RedissonClient;

/** The learned-state contract against Redis (the embedded redis-server 6.2): a run's state stays in Redis. */
class RedisLearnedStateContractTest extends LearnedStateContract {
    private static TestRedis redis;
    private static RedissonClient client;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.embedded();
        client = redis.client();
    }

    @AfterAll
    static void stopRedis() {
        client.shutdown();
        redis.close();
    }

    @Override
    protected StateStore openRun(ManualTimeSource time) {
        return RedisStateStore.builder(client).keyPrefix("learned").clock(StoreClock.injected(time)).time(time).build();
    }

    @Override
    protected void forgetAll() {
        try (StateStore s = RedisStateStore.builder(client).keyPrefix("learned").build()) {
            s.clear();
        }
    }
}
