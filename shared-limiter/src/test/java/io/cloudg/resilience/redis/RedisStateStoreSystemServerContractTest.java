package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The contract suite, unchanged, against the system's {@code redis-server} (Debian's 7.x) when one is on
 * the PATH; skipped with a logged reason otherwise ({@code .ci/run} tries to install it).
 */
class RedisStateStoreSystemServerContractTest extends StateStoreContract {
    private static final Logger LOG = LoggerFactory.getLogger(RedisStateStoreSystemServerContractTest.class);
    private static TestRedis redis;
    private static RedissonClient client;

    @BeforeAll
    static void startRedis() {
        if (TestRedis.systemBinary().isEmpty()) {
            String reason = "no redis-server on the PATH: the contract suite ran against the embedded binary only";
            LOG.warn("Skipping {}: {}", RedisStateStoreSystemServerContractTest.class.getSimpleName(), reason);
            Assumptions.abort(reason);
        }
        redis = TestRedis.start(TestRedis.Binary.SYSTEM, false);
        client = redis.client();
    }

    @AfterAll
    static void stopRedis() {
        if (client != null) {
            client.shutdown();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Override
    protected StateStore newStore(ManualTimeSource time) {
        return RedisStateStore.builder(client).keyPrefix("contract7").clock(StoreClock.injected(time)).build();
    }
}
