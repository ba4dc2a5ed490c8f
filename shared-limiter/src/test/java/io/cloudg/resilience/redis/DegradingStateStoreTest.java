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
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.BeforeEach;
import org.slf4j.LoggerFactory;
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

    /** The "shared" store: an in-memory one that throws while {@code down} is set ({@link #shared}). */
    @BeforeEach
    void setUp() {
        time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        sharedState = new InMemoryStateStore(time);
        down = new AtomicBoolean();
        probes = new AtomicInteger();
        store = new DegradingStateStore(shared("connection refused"), () -> {
            probes.incrementAndGet();
            return !down.get();
        }, new InMemoryStateStore(time), 4, time, 5 * SEC, "redis");
    }

    /** {@link #sharedState}, failing every call with {@code why} while {@link #down} is set. */
    StateStore shared(String why) {
        return (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                new Class<?>[] {StateStore.class}, (proxy, m, args) -> {
                    if (down.get() && !m.getName().equals("describe") && !m.getName().equals("close")) {
                        throw new StateStoreUnavailableException(why, null);
                    }
                    try {
                        return m.invoke(sharedState, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
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
        // the local leaf has burst 100/4 = 25 and rate 20/4 = 5 rps; fresh, it holds 25 - 0.5 s x 5/s = 22.5,
        // which the episode's first admission takes (no burst on losing the shared store): 0.5 short at 5/s
        assertThat(store.admit(admitReq(null)).waitNanos()).isEqualTo(100_000_000L);
        assertThat(store.admit(admitReq(null)).waitNanos()).isEqualTo(300_000_000L);
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
        assertThat(a.lease()).as("the drained local bucket makes it wait, so it takes its slot afterwards").isNull();
        SlotLease local = store.tryAcquireSlot(slots);
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

    // ------------------------------------------------------------------ with an outage policy and a live count

    /** A store that counts the shared store as lost after 3 failures over 5 s, sharing by {@code live}. */
    DegradingStateStore sustained(AtomicInteger live) {
        return new DegradingStateStore(shared("timed out"), () -> {
            probes.incrementAndGet();
            return !down.get();
        }, live::get, new InMemoryStateStore(time), 4, time, new Outages.Policy(3, 5 * SEC, 5 * SEC), "redis");
    }

    @Test
    void aFailedCallIsPacedLocallyWithoutDegrading() {
        DegradingStateStore s = sustained(new AtomicInteger(8));
        down.set(true);
        Admission a = s.admit(admitReq(null));
        assertThat(a.waitNanos()).as("paced locally at 1/8, from a full local bucket").isZero();
        assertThat(s.degraded()).isFalse();
        assertThat(s.status()).contains(new StoreStatus("redis", false, 0, 0));
        down.set(false);
        time.advance(Duration.ofSeconds(6));
        s.admit(admitReq(null));
        down.set(true);
        s.admit(admitReq(null));
        time.advance(Duration.ofSeconds(1));
        s.admit(admitReq(null));
        assertThat(s.degraded()).as("the answer at 6 s ended the first streak").isFalse();
        assertThat(sharedState.leafState(LEAF)).as("the shared store had the call it answered").isNotNull();
        assertThat(probes.get()).isZero();
    }

    @Test
    void sustainedFailuresDegradeToTheShareOfTheLiveProcessesAndSaySoOnce() {
        AtomicInteger live = new AtomicInteger(8);
        DegradingStateStore s = sustained(live);
        ListAppender<ILoggingEvent> log = capture();
        try {
            down.set(true);
            s.admit(admitReq(null));
            time.advance(Duration.ofSeconds(3));
            s.admit(admitReq(null));
            assertThat(s.degraded()).isFalse();
            time.advance(Duration.ofSeconds(2));
            s.admit(admitReq(null));
            assertThat(s.degraded()).as("3 failures over 5 s").isTrue();
            assertThat(s.share()).as("8 live processes, hint 4").isEqualTo(8);
            assertThat(s.retryBudgetRemaining("aws", 500)).isEqualTo(62.0);
            assertThat(s.describe()).endsWith("(degraded: local at 1/8)");
            live.set(2);
            assertThat(s.share()).as("fixed for the episode").isEqualTo(8);
            assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
                    .extracting(ILoggingEvent::getFormattedMessage).asString()
                    .contains("is unreachable (timed out; 3 calls in a row failed over 5.0 s)")
                    .contains("pacing locally at 1/8 of every limit (8 processes last seen live there, fleet_size_hint 4)");

            down.set(false);
            time.advance(Duration.ofSeconds(5));
            s.admit(admitReq(null));
            assertThat(s.degraded()).isFalse();
            down.set(true);
            for (int i = 0; i < 3; i++) {
                s.admit(admitReq(null));
                time.advance(Duration.ofSeconds(3));
            }
            assertThat(s.degraded()).isTrue();
            assertThat(s.share()).as("the hint is the floor").isEqualTo(4);
            assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN).as("one WARNING a process").hasSize(1);
            assertThat(s.status().orElseThrow().episodes()).isEqualTo(2);
        } finally {
            release(log);
        }
    }

    @Test
    void comingBackTakesFromTheSharedLeafWhatWasSpentLocallyAndNotRefilled() {
        DegradingStateStore s = sustained(new AtomicInteger(0));
        s.admit(admitReq(null)); // the shared leaf: 100 - 0.5 s x 20/s = 90, less 1
        down.set(true);
        s.admit(admitReq(null));
        time.advance(Duration.ofSeconds(2));
        s.admit(admitReq(null));
        time.advance(Duration.ofSeconds(3));
        // the 3rd failure degrades: local at 1/4 (5 rps, capacity 22.5); its first admission drains the bucket
        assertThat(s.admit(admitReq(null)).waitNanos()).isEqualTo(100_000_000L);
        assertThat(s.degraded()).isTrue();
        for (int i = 0; i < 10; i++) {
            s.admit(admitReq(null)); // 10 more, reserved ahead: the local bucket at -10.5
        }
        down.set(false);
        time.advance(Duration.ofSeconds(5)); // +25 at 5/s: the local bucket at 14.5 of 22.5, 8 whole tokens owed
        assertThat(s.admit(admitReq(null)).waitNanos()).isZero();
        assertThat(s.degraded()).isFalse();
        assertThat(sharedState.leafState(LEAF).tokens()).as("90 - its own 1 - the 8 owed").isEqualTo(81.0);
        s.admit(admitReq(null));
        assertThat(sharedState.leafState(LEAF).tokens()).as("owed once only").isEqualTo(80.0);
    }

    static ListAppender<ILoggingEvent> capture() {
        ListAppender<ILoggingEvent> a = new ListAppender<>();
        a.start();
        ((Logger) LoggerFactory.getLogger("cloudg.governor")).addAppender(a);
        return a;
    }

    static void release(ListAppender<ILoggingEvent> a) {
        ((Logger) LoggerFactory.getLogger("cloudg.governor")).detachAppender(a);
    }
}
