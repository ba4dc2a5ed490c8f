package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.LearnedStateContract;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.redisson.api.RedissonClient;

/**
 * The contract suite, unchanged, against the embedded redis-server 6.2 binary on a random port; and on the same
 * server the learned-state contract ({@link Learned}: a run's state stays in Redis, per estate).
 */
class RedisStateStoreContractTest extends StateStoreContract {
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
    protected StateStore newStore(ManualTimeSource time) {
        return RedisStateStore.builder(client).keyPrefix("contract").clock(StoreClock.injected(time)).build();
    }

    /** The learned-state contract against the same Redis. */
    @Nested
    class Learned extends LearnedStateContract {
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
}
