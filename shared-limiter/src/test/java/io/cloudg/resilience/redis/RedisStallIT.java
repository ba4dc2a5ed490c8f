package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A store whose Redis replies stall (a {@link StallingProxy} between the store and a real Redis) while two other
 * processes reach the same Redis directly: one stalled reply is paced locally without degrading; replies lost
 * for {@code degrade_after_seconds} degrade the store to its share, 1/3 for three live processes; Redis answering
 * again brings it back to the shared leaf, which is charged what was spent locally. The store's decisions run on
 * a manual clock; the quota state on Redis time.
 */
class RedisStallIT {
    static final Scope LEAF = Scope.of("aws", "121212121212", "us-east-1", "ec2", "DescribeImageAttribute");
    /** Capacity 30 - 0.25 s x 30/s = 22.5 shared; 10/s and 10 - 2.5 = 7.5 at a share of 3. */
    static final LeafLimit LIMIT = new LeafLimit(30, 30, 0.2, true);
    static final long MS = 1_000_000L;

    static AdmitRequest admit() {
        return new AdmitRequest("aws", null, Scope.account("aws", "121212121212"), null, LEAF, LIMIT, null, null, 1);
    }

    @Test
    void oneStallIsNoOutageSustainedLossPacesAtTheShareAndRecoveryChargesWhatWasSpent() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        try (TestRedis redis = TestRedis.embedded();
             StallingProxy proxy = new StallingProxy("127.0.0.1", redis.port());
             RedisStateStore other1 = FleetWorkerMain.store(redis.url(), "stall");
             RedisStateStore other2 = FleetWorkerMain.store(redis.url(), "stall")) {
            RedisSettings s = RedisSettings.builder().url("redis://127.0.0.1:" + proxy.port()).keyPrefix("stall")
                    .timeoutMs(150).connectTimeoutMs(150).degradeAfterSeconds(5.0).probeIntervalSeconds(5.0).build();
            RedisStateStore redisStore = StateStores.redisStore(s, RedisClients.create(s, k -> null), true, time);
            try (DegradingStateStore store = StateStores.degrading(s, redisStore, time)) {
                other1.announce();
                other2.announce();
                assertThat(redisStore.announce()).as("three processes live on the prefix").isEqualTo(3);
                assertThat(store.admit(admit()).waitNanos()).isZero();
                assertThat(other1.leafState(LEAF)).as("the shared leaf").isNotNull();

                // one stalled reply: that call is paced locally; the store stays on Redis
                proxy.stall();
                assertThat(store.admit(admit()).waitNanos()).isZero();
                assertThat(store.degraded()).isFalse();
                proxy.flow();
                store.admit(admit());
                assertThat(store.degraded()).isFalse();
                assertThat(store.status()).contains(new StoreStatus("redis", false, 0, 0));

                // replies lost for 5 s on the store's clock: degraded, at 1/3 of every limit
                proxy.stall();
                store.admit(admit());
                time.advance(Duration.ofSeconds(3));
                store.admit(admit());
                assertThat(store.degraded()).as("two failures over 3 s").isFalse();
                time.advance(Duration.ofSeconds(2));
                Admission first = store.admit(admit());
                assertThat(store.degraded()).as("three failures over 5 s").isTrue();
                assertThat(store.share()).isEqualTo(3);
                // the local bucket starts drained (5 held, 6 taken): 1 short at 10/s, then one call per 100 ms
                assertThat(first.waitNanos()).isEqualTo(100 * MS);
                long previous = first.waitNanos();
                for (int i = 0; i < 60; i++) {
                    long wait = store.admit(admit()).waitNanos();
                    assertThat(wait - previous).as("10/s: a third of 30/s").isEqualTo(100 * MS);
                    previous = wait;
                }
                assertThat(store.status().orElseThrow().degradedNow()).isTrue();

                // Redis answers again: the next probe brings the store back to the shared leaf, which is charged
                // what was spent locally and not refilled (-61 + 5 s x 10/s = -11 of 5: 16 tokens)
                proxy.flow();
                time.advance(Duration.ofSeconds(5));
                store.admit(admit());
                assertThat(store.degraded()).isFalse();
                StoreStatus status = store.status().orElseThrow();
                assertThat(status.episodes()).isEqualTo(1);
                assertThat(status.degradedNanos()).isEqualTo(Duration.ofSeconds(5).toNanos());
                // the idle shared leaf held 15; this admission took 1 + 16 owed. The 4 admissions whose replies
                // stalled reached Redis when the proxy let them through, and took a token each (without the debt
                // the leaf would hold at least 15 - 1 - 4 = 10)
                assertThat(other1.leafState(LEAF).tokens()).isBetween(-2 - 4 - 1e-9, -2 + 1e-9);
            }
        }
    }
}
