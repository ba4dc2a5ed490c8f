package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.Leaves;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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

    /** Redis 7 has functions: the library is loaded once and called with FCALL, and loaded again when flushed. */
    @Test
    void callsTheLibraryAsFunctionsAndLoadsItAgainAfterAFlush() {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(java.time.Duration.ofHours(1));
        RedisStateStore store = (RedisStateStore) newStore(time);
        try {
            assertThat(store.runner().functions()).as("FCALL on " + redis).isTrue();
            Scope leaf = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeVpcs");
            AdmitRequest admit = new AdmitRequest("aws", null, leaf.accountScope(), null, leaf,
                    new LeafLimit(10, 10, 1, true), null, null, 1);
            assertThat(store.admit(admit).waitNanos()).isZero();
            client.getFunction().flush();
            assertThat(store.admit(admit).waitNanos()).as("after FUNCTION FLUSH").isZero();
            assertThat(store.leafState(leaf).tokens()).isEqualTo(Leaves.capacity(new LeafLimit(10, 10, 1, true)) - 2);
        } finally {
            store.clear();
            store.close();
        }
    }
}
