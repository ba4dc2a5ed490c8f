package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.testkit.Poll;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Redis going away mid-run, and coming back; learned rates surviving a Redis restart with AOF. */
class RedisOutageIT {
    static final Scope VPCS = Scope.of("aws", "444455556666", "us-east-1", "ec2", "DescribeVpcs");

    static RateLimitConfig config(TestRedis redis) {
        RedisSettings s = RedisSettings.builder().url(redis.url()).keyPrefix("outage").fleetSizeHint(2)
                .timeoutMs(300).connectTimeoutMs(300).probeIntervalSeconds(0.2).degradeAfterSeconds(0.2).build();
        return RateLimitConfig.builder().aws(a -> a.maxRps(200.0).burst(20.0)).build()
                .withBackend(RateLimitConfig.Backend.REDIS, s);
    }

    /**
     * The store, once Redis passes the start-up check: with the test's 300 ms timeouts a JVM starved of CPU (other
     * test JVMs starting beside it) can miss the first answer, which is not what this test is about.
     */
    static StateStore reachable(RateLimitConfig c) {
        return Poll.value("Redis answering the start-up check within 300 ms", Duration.ofSeconds(30), () -> {
            try {
                return Optional.of(StateStores.reachable(c.redis(), k -> null, TimeSource.system()));
            } catch (StateStoreUnavailableException e) {
                return Optional.empty();
            }
        });
    }

    @Test
    void aRunOutlivesARedisOutageDegradedThenResynced() throws Exception {
        try (TestRedis redis = TestRedis.start(TestRedis.Binary.EMBEDDED, false);
             Governor governor = Governor.builder().config(config(redis)).store(reachable(config(redis))).build()) {
            DegradingStateStore store = (DegradingStateStore) governor.store();
            AtomicInteger done = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicInteger phase = new AtomicInteger(); // 0 before, 1 outage, 2 after
            AtomicInteger callsWhileDown = new AtomicInteger();
            Thread map = new Thread(() -> {
                try {
                    while (phase.get() < 3) {
                        Scope s = VPCS.withOperation(done.get() % 2 == 0 ? "DescribeVpcs" : "DescribeSubnets");
                        governor.call(s, () -> "ok");
                        if (phase.get() == 1) {
                            callsWhileDown.incrementAndGet();
                        }
                        done.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            map.start();
            awaitCalls(done, 50);
            assertThat(store.degraded()).isFalse();

            redis.stop();
            phase.set(1);
            int atStop = done.get();
            awaitCalls(done, atStop + 50);
            // the calls Redis fails are paced locally one by one; the store degrades once they have failed for
            // degrade_after_seconds (0.2 s here)
            Poll.until("the store degraded (or a call failed)", Duration.ofSeconds(20),
                    () -> store.degraded() || failure.get() != null);
            assertThat(store.degraded()).as("paced locally while Redis is down").isTrue();

            redis.start();
            phase.set(2);
            Poll.until("the store back on Redis (or a call failed)", Duration.ofSeconds(20),
                    () -> !store.degraded() || failure.get() != null);
            assertThat(store.degraded()).as("back on Redis").isFalse();
            int atReturn = done.get();
            awaitCalls(done, atReturn + 50);
            phase.set(3);
            map.join(10_000);

            assertThat(failure.get()).as("no call failed because of Redis").isNull();
            assertThat(callsWhileDown.get()).isGreaterThanOrEqualTo(50);
            StoreStatus status = store.status().orElseThrow();
            assertThat(status.episodes()).as("a loaded machine may see a second blip; never zero").isGreaterThanOrEqualTo(1);
            assertThat(status.degradedNanos()).isPositive();
            assertThat(status.degradedNow()).isFalse();
            ThrottlingReport report = governor.report();
            assertThat(report.governorMode()).isEqualTo("degraded");
            assertThat(report.degradedSeconds()).isPositive();
            assertThat(report.eventful()).isTrue();
            assertThat(governor.store().snapshot().leaves()).as("state is written to the restarted Redis again")
                    .extracting(LeafView::leaf).contains(VPCS);
        }
    }

    private static void awaitCalls(AtomicInteger done, int target) {
        Poll.until(target + " calls made", Duration.ofSeconds(20), () -> done.get() >= target, () -> done.get() + " made");
    }

    @Test
    void learnedRatesSurviveARedisRestartWithAof() throws Exception {
        try (TestRedis redis = TestRedis.start(TestRedis.Binary.EMBEDDED, true)) {
            RedisSettings s = RedisSettings.builder().url(redis.url()).keyPrefix("aof").build();
            var limit = new io.cloudg.resilience.config.LeafLimit(20, 40, 0.2, true);
            try (RedisStateStore first = FleetWorkerMain.store(redis.url(), "aof")) {
                first.record(new OutcomeRequest(VPCS, limit, AttemptOutcome.THROTTLED, -1, null, CallVerdict.NONE, 0, null));
                assertThat(first.snapshot().leaves()).extracting(LeafView::rateRps).containsExactly(10.0);
            }
            redis.stop();
            redis.start();
            try (RedisStateStore next = FleetWorkerMain.store(redis.url(), "aof");
                 RedisRateLimitAdmin admin = RedisRateLimitAdmin.connect(s, k -> null)) {
                LeafView learned = next.snapshot().leaves().get(0);
                assertThat(learned.leaf()).isEqualTo(VPCS);
                assertThat(learned.rateRps()).as("a new run starts from what was learned").isEqualTo(10.0);
                assertThat(learned.ceilingRps()).isEqualTo(20.0);
                assertThat(learned.throttles()).isEqualTo(1);
                double after = next.record(new OutcomeRequest(VPCS, limit, AttemptOutcome.SUCCESS, -1, null,
                        CallVerdict.NONE, 0, null)).rateRps();
                // 10, or 11 when the restart took more than the 5 quiet seconds a recovery step waits for (Redis TIME)
                assertThat(after).as("recovery continues from the learned rate").isBetween(10.0, 11.0);
                assertThat(admin.show("aws/444455556666")).extracting(RateLimitRow::rateRps).contains(after);
            }
        }
    }
}
