package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.testkit.Poll;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of a worker holding every bulkhead slot and a breaker's probe: the slots come back within the
 * lease time (not before: while it lived it renewed them), and the next call probes once the probe lease
 * has expired, so a dead probe never wedges the breaker.
 */
class KilledWorkerIT {
    static final int SLOTS = 3;
    static final long LEASE_MS = 2_000;

    @Test
    void aKilledWorkersSlotsAndProbeComeBackWithinTheirLeases() throws Exception {
        try (TestRedis redis = TestRedis.embedded();
             RedisStateStore store = FleetWorkerMain.store(redis.url(), "kill")) {
            // open the leaf's breaker (threshold 1, cooldown 0.5 s) so that the worker's first call probes
            AdmitRequest gate = new AdmitRequest("aws", null, FleetWorkerMain.ACCOUNT, null, FleetWorkerMain.LEAF,
                    FleetWorkerMain.LIMIT, FleetWorkerMain.BREAKER, null, 1);
            store.admit(gate);
            store.record(new OutcomeRequest(FleetWorkerMain.LEAF, FleetWorkerMain.LIMIT, AttemptOutcome.THROTTLED, -1,
                    FleetWorkerMain.BREAKER, CallVerdict.FAILURE, 0, null));
            assertThat(store.admit(gate).rejected()).isTrue();
            long opened = store.now();
            Poll.untilClock("the breaker's cooldown over, on Redis TIME", store::now, opened + FleetWorkerMain.BREAKER_COOLDOWN,
                    Duration.ofSeconds(10));

            SlotRequest slots = new SlotRequest(FleetWorkerMain.ACCOUNT, SLOTS, LEASE_MS * 1_000_000L);
            long probeGen;
            try (FleetProcesses.Worker w = FleetProcesses.start("hold", redis.url(), "kill", Integer.toString(SLOTS),
                    Long.toString(LEASE_MS))) {
                probeGen = Long.parseLong(w.await("HELD ").substring(5));
                assertThat(probeGen).as("the worker holds the probe").isPositive();
                assertThat(store.slotsInUse(FleetWorkerMain.ACCOUNT)).isEqualTo(SLOTS);
                assertThat(store.tryAcquireSlot(slots)).isNull();
                assertThat(store.admit(gate).rejected()).as("a probe is running").isTrue();
                long held = store.now();
                Poll.untilClock("the leases' first term over, on Redis TIME", store::now, held + (LEASE_MS + 500) * 1_000_000L,
                        Duration.ofSeconds(30));
                assertThat(store.tryAcquireSlot(slots)).as("alive, the worker renewed its leases").isNull();
                w.process.destroyForcibly().waitFor();
            }
            long killedAt = store.now();
            assertThat(store.slotsInUse(FleetWorkerMain.ACCOUNT)).as("right after the kill").isEqualTo(SLOTS);

            int[] back = {0};
            Admission[] probe = {null};
            Poll.until("every slot and the probe back after the kill", Duration.ofMillis(LEASE_MS + 3_000), () -> {
                while (back[0] < SLOTS && store.tryAcquireSlot(slots) != null) {
                    back[0]++;
                }
                if (probe[0] == null) {
                    Admission a = store.admit(gate);
                    if (!a.rejected()) {
                        probe[0] = a;
                    }
                }
                return back[0] == SLOTS && probe[0] != null;
            }, () -> back[0] + " slots back, probe " + probe[0]);
            long recoveredAt = store.now();
            assertThat(back[0]).as("slots taken back after the kill").isEqualTo(SLOTS);
            assertThat(recoveredAt - killedAt).as("server time until every slot was back")
                    .isLessThanOrEqualTo((LEASE_MS + 1_000) * 1_000_000L);
            assertThat(probe[0]).isNotNull();
            assertThat(probe[0].breaker().probe()).isTrue();
            assertThat(probe[0].breaker().probeGeneration()).as("a new probe, not the dead one's").isGreaterThan(probeGen);
        }
    }

}
