package io.cloudg.resilience.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerDecision;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link StateStore} must have, run unchanged against each backend (Bucket4j's
 * habit). A backend's test extends this class and says how to make a store that reads its time from the
 * given manual clock. Times are in nanoseconds; the clock never moves unless a test moves it.
 */
public abstract class StateStoreContract {
    protected static final long SEC = 1_000_000_000L;
    protected static final long MS = 1_000_000L;

    protected static final Scope ACCOUNT = Scope.account("aws", "123456789012");
    protected static final Scope LEAF = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
    protected static final Scope OTHER_LEAF = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeVpcs");
    protected static final LeafLimit LIMIT = new LeafLimit(20, 100, 0.2, true);
    protected static final BreakerLimit BREAKER = new BreakerLimit(5, 60 * SEC, 600 * SEC, 30 * SEC);

    protected ManualTimeSource time;
    protected StateStore store;

    /** A new, empty store whose every operation reads {@code time}. */
    protected abstract StateStore newStore(ManualTimeSource time) throws Exception;

    @BeforeEach
    void createStore() throws Exception {
        time = new ManualTimeSource();
        time.advance(Duration.ofHours(1)); // not at zero: zero is a suspicious default
        store = newStore(time);
        store.clear();
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.clear();
            store.close();
        }
    }

    // ------------------------------------------------------------------ helpers

    protected AdmitRequest admitReq(Scope leaf, LeafLimit limit) {
        return new AdmitRequest("aws", null, ACCOUNT, null, leaf, limit, BREAKER, null, 1);
    }

    protected Admission admit() {
        return store.admit(admitReq(LEAF, LIMIT));
    }

    protected long admitWait() {
        Admission a = admit();
        assertThat(a.rejected()).as("admission rejected").isFalse();
        return a.waitNanos();
    }

    protected OutcomeResult outcome(AttemptOutcome o, long retryAfter, CallVerdict v, long probe) {
        return store.record(new OutcomeRequest(LEAF, LIMIT, o, retryAfter, BREAKER, v, probe, null));
    }

    protected OutcomeResult throttle() {
        return outcome(AttemptOutcome.THROTTLED, -1, CallVerdict.NONE, 0);
    }

    protected OutcomeResult success() {
        return outcome(AttemptOutcome.SUCCESS, -1, CallVerdict.SUCCESS, 0);
    }

    protected void failCall() {
        store.admit(admitReq(LEAF, LIMIT));
        outcome(AttemptOutcome.THROTTLED, -1, CallVerdict.FAILURE, 0);
    }

    protected LeafView leaf(Scope s) {
        return store.snapshot().leaves().stream().filter(l -> l.leaf().equals(s)).findFirst().orElseThrow();
    }

    protected BreakerView breaker(Scope s) {
        return store.snapshot().breakers().stream().filter(b -> b.leaf().equals(s)).findFirst().orElseThrow();
    }

    // ------------------------------------------------------------------ token buckets

    @Test
    void freshLeafGrantsItsBurstAtOnceThenQueuesCallersInArrivalOrder() {
        // a leaf holds its burst less 0.5 s of refill (10 tokens at 20/s): see Leaves.HEADROOM_SECONDS
        for (int i = 0; i < 90; i++) {
            assertThat(admitWait()).as("call %d within burst", i).isZero();
        }
        // each further caller waits one more 1/rate slot: a fair queue
        assertThat(admitWait()).isEqualTo(50 * MS);
        assertThat(admitWait()).isEqualTo(100 * MS);
        assertThat(admitWait()).isEqualTo(150 * MS);
    }

    @Test
    void aFreshLeafKeepsHalfASecondOfHeadroomButAtLeastOneToken() {
        LeafLimit storage = new LeafLimit(0.33, 20, 0.1, true);
        for (int i = 0; i < 19; i++) {
            assertThat(store.admit(admitReq(LEAF, storage)).waitNanos()).isZero();
        }
        // 20 - 0.5 s x 0.33/s = 19.835 tokens: the 20th call waits for the missing 0.165 token
        assertThat(store.admit(admitReq(LEAF, storage)).waitNanos()).isEqualTo(500 * MS);
        LeafLimit tiny = new LeafLimit(50, 1, 0.2, true);
        assertThat(store.admit(admitReq(OTHER_LEAF, tiny)).waitNanos()).as("never below one token").isZero();
        assertThat(store.admit(admitReq(OTHER_LEAF, tiny)).waitNanos()).isEqualTo(20 * MS);
    }

    @Test
    void refillCreditsElapsedTimeAtTheRateAndNeverExceedsTheCapacity() {
        for (int i = 0; i < 90; i++) {
            admitWait();
        }
        time.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 20; i++) {
            assertThat(admitWait()).isZero();
        }
        assertThat(admitWait()).isEqualTo(50 * MS);
        time.advance(Duration.ofHours(2));
        // an idle leaf refills to its burst less 0.5 s of refill, as a fresh one starts (Leaves.capacity):
        // the headroom that absorbs the network's skew between our bucket and the provider's lasts
        for (int i = 0; i < 90; i++) {
            assertThat(admitWait()).isZero();
        }
        assertThat(admitWait()).as("the capacity caps the idle credit").isEqualTo(50 * MS);
    }

    @Test
    void callerWaitsForTheSlowestLevel() {
        BucketLimit account = new BucketLimit(2, 2);
        BucketLimit global = new BucketLimit(1, 1);
        AdmitRequest r = new AdmitRequest("aws", global, ACCOUNT, account, LEAF, LIMIT, BREAKER, null, 1);
        assertThat(store.admit(r).waitNanos()).isZero();
        assertThat(store.admit(r).waitNanos()).as("global: 1 token, 1/s").isEqualTo(SEC);
        AdmitRequest accountOnly = new AdmitRequest("aws", null, ACCOUNT, account, OTHER_LEAF, LIMIT, BREAKER, null, 1);
        assertThat(store.admit(accountOnly).waitNanos()).as("account: third token at 2/s").isEqualTo(500 * MS);
    }

    @Test
    void leavesAndProvidersAreIndependent() {
        for (int i = 0; i < 100; i++) {
            admitWait();
        }
        assertThat(store.admit(admitReq(OTHER_LEAF, LIMIT)).waitNanos()).isZero();
        Scope gcp = Scope.of("gcp", "p1", null, "cloudasset", "ListAssets");
        assertThat(store.admit(new AdmitRequest("gcp", null, gcp.accountScope(), null, gcp,
                new LeafLimit(1.5, 10, 0.05, true), BREAKER, null, 1)).waitNanos()).isZero();
    }

    // ------------------------------------------------------------------ AIMD

    @Test
    void throttleHalvesTheRateAndDrainsTheBurst() {
        admitWait();
        OutcomeResult r = throttle();
        assertThat(r.rateDecreased()).isTrue();
        assertThat(r.rateRps()).isEqualTo(10.0);
        assertThat(admitWait()).as("burst drained: the next token is 1/10 s away").isEqualTo(100 * MS);
        assertThat(leaf(LEAF).rateRps()).isEqualTo(10.0);
        assertThat(leaf(LEAF).ceilingRps()).isEqualTo(20.0);
        assertThat(leaf(LEAF).throttles()).isEqualTo(1);
    }

    @Test
    void throttlesWithinOneSecondOfTheLastDecreaseAreOneEvent() {
        for (int i = 0; i < 40; i++) {
            throttle();
        }
        assertThat(leaf(LEAF).rateRps()).isEqualTo(10.0);
        assertThat(leaf(LEAF).throttles()).isEqualTo(40);
        time.advance(Duration.ofMillis(999));
        assertThat(throttle().rateDecreased()).isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(throttle().rateRps()).isEqualTo(5.0);
    }

    @Test
    void rateNeverGoesBelowTheFloor() {
        for (int i = 0; i < 20; i++) {
            throttle();
            time.advance(Duration.ofSeconds(1));
        }
        assertThat(leaf(LEAF).rateRps()).isEqualTo(0.2);
    }

    @Test
    void retryAfterPausesTheBucket() {
        admitWait();
        outcome(AttemptOutcome.THROTTLED, 30 * SEC, CallVerdict.NONE, 0);
        long wait = admitWait();
        assertThat(wait).isGreaterThanOrEqualTo(30 * SEC).isLessThan(31 * SEC);
        assertThat(leaf(LEAF).pausedForNanos()).isEqualTo(30 * SEC);
    }

    // ------------------------------------------------------------------ fixed windows (quotas counted per window: Resource Graph's 5 s, Cloud Asset's minute)

    protected OutcomeResult windowThrottle(QuotaWindow w) {
        return store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0,
                null, w));
    }

    @Test
    void aWindowsResetPausesTheLeafUntilTheReset() {
        admitWait();
        OutcomeResult r = windowThrottle(QuotaWindow.resetsIn(3 * SEC));
        assertThat(r.rateRps()).as("a window of unknown size: AIMD halves").isEqualTo(10.0);
        assertThat(leaf(LEAF).pausedForNanos()).isEqualTo(3 * SEC);
        assertThat(admitWait()).as("the reset, then the next token at 10/s").isEqualTo(3 * SEC + 100 * MS);
    }

    @Test
    void throttlesThatArriveBeforeTheWindowResetsAreOneEvent() {
        windowThrottle(QuotaWindow.resetsIn(4 * SEC));
        time.advance(Duration.ofMillis(2500));
        OutcomeResult late = windowThrottle(QuotaWindow.resetsIn(1500 * MS));
        assertThat(late.rateDecreased()).as("sent before the window ran out").isFalse();
        assertThat(late.rateRps()).isEqualTo(10.0);
        assertThat(leaf(LEAF).throttles()).isEqualTo(2);
        time.advance(Duration.ofMillis(1500));
        assertThat(windowThrottle(QuotaWindow.resetsIn(4 * SEC)).rateRps()).as("the next window's throttle")
                .isEqualTo(5.0);
    }

    @Test
    void aThrottleThatSaysTheWindowsSizeSetsTheRateToItsQuotaSpreadOverTheWindow() {
        admitWait();
        QuotaWindow w = new QuotaWindow(2 * SEC, 15, 5 * SEC, null);
        OutcomeResult r = windowThrottle(w);
        double spread = 15 / 5.5;
        assertThat(w.spreadRps()).isEqualTo(spread);
        assertThat(r.rateDecreased()).isTrue();
        assertThat(r.rateRps()).as("15 per 5 s, half a second of headroom").isEqualTo(spread);
        long first = admitWait();
        assertThat(first).as("after the reset, one token at the spread rate").isEqualTo(2 * SEC
                + (long) Math.ceil(SEC / spread));
        assertThat(leaf(LEAF).ceilingRps()).isEqualTo(20.0);
    }

    @Test
    void recoveryNeverClimbsAboveALearnedWindowRate() {
        QuotaWindow w = QuotaWindow.sized(15, 5 * SEC);
        double spread = w.spreadRps();
        windowThrottle(w);
        time.advance(Duration.ofSeconds(2));
        OutcomeResult again = windowThrottle(w);
        assertThat(again.rateRps()).as("throttled at the spread rate: someone shares the window").isEqualTo(spread / 2);
        for (int i = 0; i < 20; i++) {
            time.advance(Duration.ofSeconds(5));
            success();
        }
        assertThat(leaf(LEAF).rateRps()).as("recovered to the window rate, not to the ceiling of 20").isEqualTo(spread);
    }

    @Test
    void aWindowLargerThanTheCeilingHalvesTheLeafAsAnyThrottle() {
        LeafLimit slow = new LeafLimit(1.5, 10, 0.05, true);
        QuotaWindow minute = QuotaWindow.sized(100, 60 * SEC);
        OutcomeResult r = store.record(new OutcomeRequest(LEAF, slow, AttemptOutcome.THROTTLED, -1, BREAKER,
                CallVerdict.NONE, 0, null, minute));
        assertThat(r.rateRps()).as("already below 100/min: someone else spends the window").isEqualTo(0.75);
        for (int i = 0; i < 20; i++) {
            time.advance(Duration.ofSeconds(5));
            store.record(new OutcomeRequest(LEAF, slow, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0, null));
        }
        assertThat(leaf(LEAF).rateRps()).as("recovers to the ceiling, below the window rate").isEqualTo(1.5);
    }

    @Test
    void successRecoversFivePercentOfTheCeilingAtMostOncePerFiveSeconds() {
        throttle();
        time.advance(Duration.ofSeconds(1));
        throttle();
        assertThat(leaf(LEAF).rateRps()).isEqualTo(5.0);
        time.advance(Duration.ofMillis(4999));
        assertThat(success().rateRps()).as("not yet 5 s quiet").isEqualTo(5.0);
        time.advance(Duration.ofMillis(1));
        assertThat(success().rateRps()).isEqualTo(6.0);
        assertThat(success().rateRps()).as("once per 5 s").isEqualTo(6.0);
        time.advance(Duration.ofSeconds(5));
        assertThat(success().rateRps()).isEqualTo(7.0);
    }

    @Test
    void nonAdaptiveLeafKeepsItsRate() {
        LeafLimit frozen = new LeafLimit(20, 100, 0.2, false);
        store.record(new OutcomeRequest(LEAF, frozen, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0, null));
        assertThat(leaf(LEAF).rateRps()).isEqualTo(20.0);
        assertThat(leaf(LEAF).throttles()).isEqualTo(1);
    }

    @Test
    void transientAndFatalAnswersDoNotMoveTheRate() {
        throttle();
        outcome(AttemptOutcome.TRANSIENT, -1, CallVerdict.NONE, 0);
        outcome(AttemptOutcome.FATAL, -1, CallVerdict.REACHABLE, 0);
        assertThat(leaf(LEAF).rateRps()).isEqualTo(10.0);
    }

    @Test
    void aLowerConfiguredCeilingClampsTheLeaf() {
        admitWait();
        LeafLimit lower = new LeafLimit(5, 10, 0.2, true);
        store.admit(admitReq(LEAF, lower));
        assertThat(leaf(LEAF).rateRps()).isEqualTo(5.0);
        assertThat(leaf(LEAF).ceilingRps()).isEqualTo(5.0);
    }

    // ------------------------------------------------------------------ breakers

    @Test
    void breakerOpensAfterThresholdConsecutiveFailures() {
        for (int i = 0; i < 4; i++) {
            failCall();
        }
        assertThat(admit().rejected()).isFalse();
        OutcomeResult r = outcome(AttemptOutcome.THROTTLED, -1, CallVerdict.FAILURE, 0);
        assertThat(r.tripped()).isTrue();
        assertThat(r.breakerPhase()).isEqualTo(BreakerState.Phase.OPEN);
        Admission rejected = admit();
        assertThat(rejected.rejected()).isTrue();
        assertThat(rejected.breaker().retryInNanos()).isEqualTo(60 * SEC);
        assertThat(breaker(LEAF).trips()).isEqualTo(1);
        assertThat(store.admit(admitReq(OTHER_LEAF, LIMIT)).rejected()).as("other leaves unaffected").isFalse();
    }

    @Test
    void rejectedAdmissionTakesNoTokens() {
        for (int i = 0; i < 5; i++) {
            failCall();
        }
        time.advance(Duration.ofSeconds(30));
        for (int i = 0; i < 500; i++) {
            assertThat(admit().rejected()).isTrue();
        }
        time.advance(Duration.ofSeconds(30));
        Admission probe = admit();
        assertThat(probe.breaker().kind()).isEqualTo(BreakerDecision.Kind.PROBE);
        assertThat(probe.waitNanos()).as("rejections took nothing").isZero();
    }

    @Test
    void successOrReachableResetsTheCount() {
        for (int i = 0; i < 4; i++) {
            failCall();
        }
        outcome(AttemptOutcome.FATAL, -1, CallVerdict.REACHABLE, 0);
        for (int i = 0; i < 4; i++) {
            failCall();
        }
        success();
        for (int i = 0; i < 4; i++) {
            failCall();
        }
        assertThat(admit().rejected()).isFalse();
        assertThat(breaker(LEAF).phase()).isEqualTo(BreakerState.Phase.CLOSED);
    }

    @Test
    void neutralEndingsNeverCount() {
        for (int i = 0; i < 20; i++) {
            store.admit(admitReq(LEAF, LIMIT));
            outcome(AttemptOutcome.THROTTLED, -1, CallVerdict.NEUTRAL, 0);
        }
        assertThat(admit().rejected()).isFalse();
    }

    private long openAndWaitForProbe() {
        for (int i = 0; i < 5; i++) {
            failCall();
        }
        time.advance(Duration.ofSeconds(60));
        Admission probe = admit();
        assertThat(probe.breaker().kind()).isEqualTo(BreakerDecision.Kind.PROBE);
        return probe.breaker().probeGeneration();
    }

    @Test
    void onlyOneProbeAtATimeAndItsSuccessCloses() {
        long gen = openAndWaitForProbe();
        assertThat(admit().rejected()).as("a probe is running").isTrue();
        assertThat(breaker(LEAF).phase()).isEqualTo(BreakerState.Phase.HALF_OPEN);
        outcome(AttemptOutcome.SUCCESS, -1, CallVerdict.SUCCESS, gen);
        assertThat(breaker(LEAF).phase()).isEqualTo(BreakerState.Phase.CLOSED);
        assertThat(admit().rejected()).isFalse();
    }

    @Test
    void failedProbeReopensWithTheCooldownDoubledUpToTheCap() {
        long gen = openAndWaitForProbe();
        outcome(AttemptOutcome.THROTTLED, -1, CallVerdict.FAILURE, gen);
        assertThat(breaker(LEAF).phase()).isEqualTo(BreakerState.Phase.OPEN);
        assertThat(breaker(LEAF).cooldownNanos()).isEqualTo(120 * SEC);
        long expected = 120 * SEC;
        for (int i = 0; i < 6; i++) {
            time.advance(Duration.ofNanos(breaker(LEAF).cooldownNanos()));
            Admission p = admit();
            assertThat(p.breaker().probe()).isTrue();
            outcome(AttemptOutcome.THROTTLED, -1, CallVerdict.FAILURE, p.breaker().probeGeneration());
            expected = Math.min(600 * SEC, expected * 2);
            assertThat(breaker(LEAF).cooldownNanos()).isEqualTo(expected);
        }
        time.advance(Duration.ofSeconds(600));
        Admission p = admit();
        outcome(AttemptOutcome.SUCCESS, -1, CallVerdict.SUCCESS, p.breaker().probeGeneration());
        assertThat(breaker(LEAF).cooldownNanos()).as("base cooldown restored").isEqualTo(60 * SEC);
    }

    @Test
    void anExpiredProbeLeaseLetsTheNextCallProbe() {
        long gen = openAndWaitForProbe();
        time.advance(Duration.ofSeconds(29));
        assertThat(admit().rejected()).isTrue();
        time.advance(Duration.ofSeconds(1));
        Admission next = admit();
        assertThat(next.breaker().probe()).isTrue();
        assertThat(next.breaker().probeGeneration()).isGreaterThan(gen);
        outcome(AttemptOutcome.SUCCESS, -1, CallVerdict.SUCCESS, gen);
        assertThat(breaker(LEAF).phase()).as("the stale probe's answer is ignored").isEqualTo(BreakerState.Phase.HALF_OPEN);
        outcome(AttemptOutcome.SUCCESS, -1, CallVerdict.SUCCESS, next.breaker().probeGeneration());
        assertThat(breaker(LEAF).phase()).isEqualTo(BreakerState.Phase.CLOSED);
    }

    @Test
    void aNeutralProbeGivesItsLeaseBack() {
        long gen = openAndWaitForProbe();
        outcome(AttemptOutcome.NONE, -1, CallVerdict.NEUTRAL, gen);
        assertThat(admit().breaker().probe()).isTrue();
    }

    @Test
    void lateOutcomesOfCallsAdmittedBeforeTheBreakerOpenedAreIgnored() {
        for (int i = 0; i < 5; i++) {
            failCall();
        }
        success();
        assertThat(breaker(LEAF).phase()).isEqualTo(BreakerState.Phase.OPEN);
    }

    // ------------------------------------------------------------------ bulkheads

    protected SlotRequest slots(int max, long leaseNanos) {
        return new SlotRequest(ACCOUNT, max, leaseNanos);
    }

    @Test
    void bulkheadCapsConcurrentLeases() {
        List<SlotLease> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SlotLease l = store.tryAcquireSlot(slots(3, 60 * SEC));
            assertThat(l).isNotNull();
            held.add(l);
        }
        assertThat(store.tryAcquireSlot(slots(3, 60 * SEC))).isNull();
        assertThat(store.slotsInUse(ACCOUNT)).isEqualTo(3);
        store.releaseSlot(held.get(1));
        assertThat(store.slotsInUse(ACCOUNT)).isEqualTo(2);
        assertThat(store.tryAcquireSlot(slots(3, 60 * SEC))).isNotNull();
        assertThat(store.tryAcquireSlot(slots(3, 60 * SEC))).isNull();
        assertThat(held.stream().map(SlotLease::id).distinct().count()).isEqualTo(3);
    }

    @Test
    void expiredLeasesGiveTheirSlotsBack() {
        SlotLease a = store.tryAcquireSlot(slots(2, 10 * SEC));
        time.advance(Duration.ofSeconds(5));
        SlotLease b = store.tryAcquireSlot(slots(2, 10 * SEC));
        assertThat(store.tryAcquireSlot(slots(2, 10 * SEC))).isNull();
        time.advance(Duration.ofSeconds(5));
        assertThat(store.renewSlot(a, 10 * SEC)).as("a expired").isFalse();
        assertThat(store.renewSlot(b, 10 * SEC)).isTrue();
        assertThat(store.tryAcquireSlot(slots(2, 10 * SEC))).isNotNull();
        time.advance(Duration.ofSeconds(9));
        assertThat(store.tryAcquireSlot(slots(2, 10 * SEC))).as("b renewed").isNull();
        store.releaseSlot(a); // releasing an expired lease is a no-op
        assertThat(store.slotsInUse(ACCOUNT)).isEqualTo(2);
    }

    @Test
    void admitTakesASlotOnlyWhenNoWaitIsNeeded() {
        AdmitRequest withSlot = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, new LeafLimit(1, 1, 0.1, true),
                BREAKER, slots(10, 60 * SEC), 1);
        Admission first = store.admit(withSlot);
        assertThat(first.waitNanos()).isZero();
        assertThat(first.lease()).isNotNull();
        Admission second = store.admit(withSlot);
        assertThat(second.waitNanos()).isEqualTo(SEC);
        assertThat(second.lease()).isNull();
        assertThat(store.slotsInUse(ACCOUNT)).isEqualTo(1);
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0,
                first.lease()));
        assertThat(store.slotsInUse(ACCOUNT)).as("record released the slot").isZero();
    }

    // ------------------------------------------------------------------ retry budget

    @Test
    void retryBudgetRunsDryAndSuccessesRefundATenthUpToTheSize() {
        for (int i = 0; i < 3; i++) {
            assertThat(store.tryTakeRetry("aws", 3)).isTrue();
        }
        assertThat(store.tryTakeRetry("aws", 3)).isFalse();
        assertThat(store.retryBudgetRemaining("aws", 3)).isEqualTo(0.0);
        for (int i = 0; i < 9; i++) {
            store.refundRetry("aws", 3);
        }
        assertThat(store.tryTakeRetry("aws", 3)).as("0.9 is less than one token").isFalse();
        store.refundRetry("aws", 3);
        assertThat(store.retryBudgetRemaining("aws", 3)).isCloseTo(1.0, within(1e-9));
        assertThat(store.tryTakeRetry("aws", 3)).isTrue();
        for (int i = 0; i < 100; i++) {
            store.refundRetry("aws", 3);
        }
        assertThat(store.retryBudgetRemaining("aws", 3)).isEqualTo(3.0);
        assertThat(store.retryBudgetRemaining("gcp", 500)).as("per provider").isEqualTo(500.0);
    }

    // ------------------------------------------------------------------ snapshot

    @Test
    void snapshotShowsLeavesAndBreakers() {
        admitWait();
        throttle();
        store.admit(admitReq(OTHER_LEAF, LIMIT));
        StoreSnapshot s = store.snapshot();
        assertThat(s.leaves()).extracting(LeafView::leaf).contains(LEAF, OTHER_LEAF);
        assertThat(leaf(LEAF).slowed()).isTrue();
        assertThat(leaf(OTHER_LEAF).slowed()).isFalse();
        assertThat(s.breakers()).extracting(BreakerView::leaf).contains(LEAF);
        store.clear();
        assertThat(store.snapshot().leaves()).isEmpty();
    }

    @Test
    void troubledHoldsTheSlowedLeavesAndTroubledBreakersOfTheSnapshot() {
        Scope tripped = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeImages");
        Scope failedOnce = Scope.of("aws", "123456789012", "eu-west-1", "ec2", "DescribeVolumes");
        admitWait();
        throttle(); // LEAF: halved, its breaker closed without failures
        store.admit(admitReq(OTHER_LEAF, LIMIT));
        store.record(new OutcomeRequest(OTHER_LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0,
                null)); // at its ceiling
        for (int i = 0; i < 5; i++) { // BREAKER's threshold of transient failures: open, the rate untouched
            store.admit(admitReq(tripped, LIMIT));
            store.record(new OutcomeRequest(tripped, LIMIT, AttemptOutcome.TRANSIENT, -1, BREAKER, CallVerdict.FAILURE,
                    0, null));
        }
        store.admit(admitReq(failedOnce, LIMIT)); // one failure: closed, never tripped
        store.record(new OutcomeRequest(failedOnce, LIMIT, AttemptOutcome.TRANSIENT, -1, BREAKER, CallVerdict.FAILURE, 0,
                null));

        StoreSnapshot troubled = store.troubled();
        assertThat(troubled.leaves()).extracting(LeafView::leaf).containsExactly(LEAF);
        assertThat(troubled.breakers()).extracting(BreakerView::leaf).containsExactly(tripped);
        assertThat(troubled.breakers().get(0).phase()).isEqualTo(BreakerState.Phase.OPEN);
        StoreSnapshot all = store.snapshot();
        assertThat(all.leaves()).extracting(LeafView::leaf).contains(LEAF, OTHER_LEAF, tripped, failedOnce);
        assertThat(troubled.leaves()).containsExactlyInAnyOrderElementsOf(all.troubled().leaves());
        assertThat(troubled.breakers()).containsExactlyInAnyOrderElementsOf(all.troubled().breakers());

        time.advance(Duration.ofMinutes(2)); // the breaker's cooldown passes: a probe closes it again, tripped once
        Admission probe = store.admit(admitReq(tripped, LIMIT));
        store.record(new OutcomeRequest(tripped, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS,
                probe.breaker().probeGeneration(), null));
        assertThat(store.troubled().breakers()).singleElement().satisfies(b -> {
            assertThat(b.phase()).isEqualTo(BreakerState.Phase.CLOSED);
            assertThat(b.trips()).isEqualTo(1);
        });
        store.clear();
        assertThat(store.troubled().leaves()).isEmpty();
        assertThat(store.troubled().breakers()).isEmpty();
    }

    @Test
    void aLeafThatRecoversToItsCeilingIsNoLongerTroubledAndOneThrottledAgainIs() {
        admitWait();
        throttle();
        assertThat(store.troubled().leaves()).extracting(LeafView::leaf).containsExactly(LEAF);
        for (int i = 0; i < 30 && leaf(LEAF).slowed(); i++) { // a recovery step per quiet 5 s: 5% of the ceiling
            time.advance(Duration.ofSeconds(6));
            admitWait();
            success();
        }
        assertThat(leaf(LEAF).slowed()).as("recovered").isFalse();
        assertThat(store.troubled().leaves()).isEmpty();
        assertThat(store.troubled().leaves()).isEmpty(); // read twice: whatever a read tidies stays tidy

        time.advance(Duration.ofSeconds(6));
        admitWait();
        throttle();
        assertThat(store.troubled().leaves()).extracting(LeafView::leaf).containsExactly(LEAF);
        assertThat(store.troubled().leaves()).containsExactlyInAnyOrderElementsOf(store.snapshot().troubled().leaves());
    }

    @Test
    void aCeilingRaisedAboveALeafsRateLeavesItTroubledWithoutAnOutcome() {
        admitWait(); // at LIMIT's ceiling, 20/s
        assertThat(store.troubled().leaves()).isEmpty();
        LeafLimit raised = new LeafLimit(40, 100, 0.2, true);
        assertThat(store.admit(admitReq(LEAF, raised)).waitNanos()).isZero();
        assertThat(leaf(LEAF).slowed()).as("below the raised ceiling until it recovers").isTrue();
        assertThat(store.troubled().leaves()).extracting(LeafView::leaf).containsExactly(LEAF);
        assertThat(store.troubled().leaves()).containsExactlyInAnyOrderElementsOf(store.snapshot().troubled().leaves());
    }
}
