package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.time.ManualTimeSource;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DegradingStateStoreTest {
    static final long SEC = 1_000_000_000L;
    static final Scope ACCOUNT = Scope.account("aws", "111122223333");
    static final Scope LEAF = Scope.of("aws", "111122223333", "eu-west-1", "ec2", "DescribeVpcs");
    static final LeafLimit LIMIT = new LeafLimit(20, 100, 0.2, true);
    static final BreakerLimit BREAKER = new BreakerLimit(5, 60 * SEC, 600 * SEC, 30 * SEC);

    ManualTimeSource time;
    InMemoryStateStore sharedState;
    AtomicBoolean down;
    AtomicInteger probes;
    DegradingStateStore store;

    /** The "shared" store: an in-memory one that throws while {@code down} is set. */
    @BeforeEach
    void setUp() {
        time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        sharedState = new InMemoryStateStore(time);
        down = new AtomicBoolean();
        probes = new AtomicInteger();
        StateStore shared = (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                new Class<?>[] {StateStore.class}, (proxy, m, args) -> {
                    if (down.get() && !m.getName().equals("describe") && !m.getName().equals("close")) {
                        throw new StateStoreUnavailableException("connection refused", null);
                    }
                    try {
                        return m.invoke(sharedState, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        store = new DegradingStateStore(shared, () -> {
            probes.incrementAndGet();
            return !down.get();
        }, new InMemoryStateStore(time), 4, time, 5 * SEC, "redis");
    }

    AdmitRequest admitReq(SlotRequest slot) {
        return new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER, slot, 1);
    }

    @Test
    void healthySharedStoreIsUsedAndReportsRedis() {
        assertThat(store.admit(admitReq(null)).waitNanos()).isZero();
        assertThat(sharedState.snapshot().leaves()).hasSize(1);
        assertThat(store.status()).contains(new StoreStatus("redis", false, 0, 0));
        assertThat(store.status().orElseThrow().mode()).isEqualTo("redis");
    }

    @Test
    void unreachableStoreDegradesToAQuarterOfEveryLimitThenComesBack() {
        down.set(true);
        // the local leaf has burst 100/4 = 25 and rate 20/4 = 5 rps; fresh, it holds 25 - 0.25 s x 5/s = 23.75
        for (int i = 0; i < 23; i++) {
            assertThat(store.admit(admitReq(null)).waitNanos()).as("call %d", i).isZero();
        }
        assertThat(store.admit(admitReq(null)).waitNanos()).isEqualTo(50_000_000L);
        assertThat(store.admit(admitReq(null)).waitNanos()).isEqualTo(250_000_000L);
        assertThat(store.degraded()).isTrue();
        assertThat(probes.get()).as("no probe before the interval").isZero();
        time.advance(Duration.ofSeconds(3));
        store.admit(admitReq(null));
        assertThat(probes.get()).isZero();
        StoreStatus s = store.status().orElseThrow();
        assertThat(s.mode()).isEqualTo("degraded");
        assertThat(s.degradedNow()).isTrue();
        assertThat(s.degradedNanos()).isEqualTo(3 * SEC);

        time.advance(Duration.ofSeconds(2));
        store.admit(admitReq(null));
        assertThat(probes.get()).as("one probe per interval").isEqualTo(1);
        assertThat(store.degraded()).isTrue();

        down.set(false);
        time.advance(Duration.ofSeconds(5));
        assertThat(store.admit(admitReq(null)).waitNanos()).as("shared store again, full burst").isZero();
        assertThat(store.degraded()).isFalse();
        assertThat(sharedState.snapshot().leaves()).hasSize(1);
        StoreStatus after = store.status().orElseThrow();
        assertThat(after.degradedNanos()).isEqualTo(10 * SEC);
        assertThat(after.episodes()).isEqualTo(1);
        assertThat(after.mode()).as("the run was degraded at some point").isEqualTo("degraded");
    }

    @Test
    void slotsTakenWhileDegradedAreReleasedLocallyAfterRecovery() {
        down.set(true);
        SlotRequest slots = new SlotRequest(ACCOUNT, 8, 60 * SEC);
        Admission a = store.admit(admitReq(slots));
        SlotLease local = a.lease();
        assertThat(local).isNotNull();
        assertThat(local.id()).as("local leases are negative").isNegative();
        assertThat(store.tryAcquireSlot(slots)).isNotNull();
        assertThat(store.tryAcquireSlot(slots)).as("8 / 4 = 2 local slots").isNull();

        down.set(false);
        time.advance(Duration.ofSeconds(5));
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0, local));
        assertThat(store.degraded()).isFalse();
        down.set(true);
        time.advance(Duration.ofSeconds(1));
        assertThat(store.tryAcquireSlot(slots)).as("the local slot came back").isNotNull();
    }

    @Test
    void aProbeGrantedLocallyIsNotMistakenForASharedOne() {
        down.set(true);
        for (int i = 0; i < 5; i++) {
            store.admit(admitReq(null));
            store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.FAILURE, 0,
                    null));
        }
        assertThat(store.admit(admitReq(null)).rejected()).isTrue();
        time.advance(Duration.ofSeconds(60));
        Admission probe = store.admit(admitReq(null));
        assertThat(probe.breaker().probe()).isTrue();
        assertThat(probe.breaker().probeGeneration()).isNegative();
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS,
                probe.breaker().probeGeneration(), null));
        assertThat(store.admit(admitReq(null)).rejected()).as("the local probe closed the local breaker").isFalse();
    }

    @Test
    void budgetsShrinkToTheShare() {
        down.set(true);
        assertThat(store.retryBudgetRemaining("aws", 500)).isEqualTo(125.0);
    }
}
