package io.cloudg.resilience.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link EstateKeyed} store must have, run unchanged against each backend (the embedded
 * governor's state file, Redis): learned state outlives a run, per estate. Each run is a store opened over what the
 * runs before it left, ended by {@code close()}; the clock is one manual clock across runs.
 */
public abstract class LearnedStateContract {
    protected static final long SEC = 1_000_000_000L;
    protected static final Scope ACCOUNT = Scope.account("aws", "123456789012");
    protected static final Scope LEAF = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
    protected static final LeafLimit LIMIT = new LeafLimit(20, 100, 0.2, true);
    protected static final BreakerLimit BREAKER = new BreakerLimit(5, 60 * SEC, 600 * SEC, 30 * SEC);
    /** A real organization, and a simulator whose accounts have the same ids. */
    protected static final String REAL = "aws:123456789012@aws";
    protected static final String SIM = "aws:123456789012@http://127.0.0.1:4566";

    protected ManualTimeSource time;

    /** A store as a run opens it, over the learned state the runs before it left, reading {@code time}. */
    protected abstract StateStore openRun(ManualTimeSource time) throws Exception;

    /** Forgets every learned state the runs left (each test starts from none). */
    protected abstract void forgetAll() throws Exception;

    @BeforeEach
    void fresh() throws Exception {
        time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        forgetAll();
    }

    private static EstateKeyed estates(StateStore s) {
        Optional<EstateKeyed> e = EstateKeyed.in(s);
        assertThat(e).as("the store keeps learned state per estate").isPresent();
        return e.get();
    }

    /** One throttled call on {@link #LEAF}: its rate halves to 10. */
    private static void throttle(StateStore s) {
        assertThat(s.admit(new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER, null, 1)).rejected())
                .isFalse();
        s.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0, null));
    }

    /** {@link #LEAF}'s rate as the store's troubled leaves say, or its ceiling when it is not among them. */
    private static double rate(StateStore s) {
        return s.troubled().leaves().stream().filter(l -> l.leaf().equals(LEAF)).mapToDouble(LeafView::rateRps)
                .findFirst().orElse(LIMIT.ceilingRps());
    }

    /** A run of {@code estate} that throttles {@link #LEAF} once. */
    private void learn(String estate) throws Exception {
        try (StateStore run = openRun(time)) {
            if (estate != null) {
                assertThat(estates(run).useEstate("aws", estate)).isZero();
            }
            throttle(run);
            assertThat(rate(run)).isEqualTo(10.0);
        }
        time.advance(Duration.ofMinutes(1));
    }

    @Test
    void aRunOfTheSameEstateStartsFromWhatTheLastOneLearned() throws Exception {
        learn(REAL);
        try (StateStore run = openRun(time)) {
            assertThat(estates(run).useEstate("aws", REAL)).as("one leaf learned").isEqualTo(1);
            assertThat(estates(run).uses()).containsExactly(new EstateKeyed.EstateUse("aws", REAL, 1));
            assertThat(rate(run)).isEqualTo(10.0);
        }
    }

    @Test
    void anotherEstateWithTheSameAccountIdsStartsFromTheCeilingAndLeavesTheFirstOnesAlone() throws Exception {
        learn(REAL);
        try (StateStore run = openRun(time)) {
            assertThat(estates(run).useEstate("aws", SIM)).as("nothing learned for the simulator").isZero();
            assertThat(rate(run)).isEqualTo(LIMIT.ceilingRps());
            assertThat(run.admit(new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER, null, 1)).waitNanos())
                    .as("a fresh leaf: its burst at once").isZero();
            throttle(run); // the simulator learns its own
        }
        try (StateStore run = openRun(time)) {
            assertThat(estates(run).useEstate("aws", REAL)).isEqualTo(1);
            assertThat(rate(run)).as("the real estate's own, once").isEqualTo(10.0);
        }
    }

    @Test
    void aSecondEstateForAProviderIsRefusedAndTheFirstHolds() throws Exception {
        try (StateStore run = openRun(time)) {
            estates(run).useEstate("aws", REAL);
            assertThat(estates(run).useEstate("aws", SIM)).isZero();
            assertThat(estates(run).uses()).extracting(EstateKeyed.EstateUse::estate).containsExactly(REAL);
            throttle(run);
        }
        try (StateStore run = openRun(time)) {
            assertThat(estates(run).useEstate("aws", SIM)).as("what the run learned is the first estate's").isZero();
        }
        try (StateStore run = openRun(time)) {
            assertThat(estates(run).useEstate("aws", REAL)).isEqualTo(1);
        }
    }

    @Test
    void whatARunLearnedBeforeItsEstateWasToldIsNoEstates() throws Exception {
        learn(null);
        try (StateStore run = openRun(time)) {
            assertThat(estates(run).useEstate("aws", REAL)).isZero();
            assertThat(rate(run)).isEqualTo(LIMIT.ceilingRps());
        }
    }

    @Test
    void aBlankEstateIsRefused() throws Exception {
        try (StateStore run = openRun(time)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> estates(run).useEstate("aws", " "))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
