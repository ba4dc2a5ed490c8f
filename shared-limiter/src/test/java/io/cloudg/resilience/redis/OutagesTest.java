package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Time;
import org.junit.jupiter.api.Test;

/** The pure rules of {@link Outages}: when a shared store counts as lost, when it is back, what is owed. */
class OutagesTest {
    static final long SEC = 1_000_000_000L;
    static final long T0 = 3_600 * SEC;
    static final Outages.Policy POLICY = new Outages.Policy(3, 5 * SEC, 5 * SEC);

    static Outages.State failAt(Outages.State s, long... times) {
        for (long t : times) {
            s = Outages.failed(s, t, POLICY, 4);
        }
        return s;
    }

    @Test
    void aStallThatFailsEveryCallInFlightAtOnceIsNoOutage() {
        Outages.State s = Outages.State.HEALTHY;
        for (int i = 0; i < 50; i++) {
            s = Outages.failed(s, T0 + i * 1_000_000L, POLICY, 4); // 50 timeouts within 50 ms
        }
        assertThat(s.degraded()).isFalse();
        assertThat(s.failures()).isEqualTo(50);
        assertThat(s.streakSince()).isEqualTo(T0);
    }

    @Test
    void failuresLastingTheTimeAndOftenEnoughDegradeAtTheShare() {
        Outages.State s = failAt(Outages.State.HEALTHY, T0, T0 + 2 * SEC, T0 + 4 * SEC);
        assertThat(s.degraded()).as("three failures, but over 4 s").isFalse();
        s = Outages.failed(s, T0 + 5 * SEC, POLICY, 7);
        assertThat(s.degraded()).isTrue();
        assertThat(s.since()).isEqualTo(T0 + 5 * SEC);
        assertThat(s.share()).isEqualTo(7);
        assertThat(s.failures()).isZero();
        assertThat(Outages.failed(s, T0 + 9 * SEC, POLICY, 9)).as("a later failure changes nothing").isEqualTo(s);
    }

    @Test
    void twoFailuresAreNotEnoughHoweverFarApart() {
        Outages.State s = failAt(Outages.State.HEALTHY, T0, T0 + 60 * SEC);
        assertThat(s.degraded()).isFalse();
        assertThat(failAt(s, T0 + 61 * SEC).degraded()).isTrue();
    }

    @Test
    void oneAnsweredCallEndsTheStreak() {
        Outages.State s = failAt(Outages.State.HEALTHY, T0, T0 + 3 * SEC, T0 + 4 * SEC);
        s = Outages.answered(s);
        assertThat(s).isEqualTo(Outages.State.HEALTHY);
        s = failAt(s, T0 + 5 * SEC, T0 + 6 * SEC, T0 + 9 * SEC);
        assertThat(s.degraded()).as("the new streak began at 5 s").isFalse();
        assertThat(failAt(s, T0 + 10 * SEC).degraded()).isTrue();
    }

    @Test
    void anImmediatePolicyDegradesAtTheFirstFailure() {
        Outages.State s = Outages.failed(Outages.State.HEALTHY, T0, Outages.Policy.immediate(SEC), 2);
        assertThat(s.degraded()).isTrue();
        assertThat(s.share()).isEqualTo(2);
    }

    @Test
    void probesComeOncePerIntervalAndOneThatAnswersEndsTheEpisode() {
        Outages.State s = failAt(Outages.State.HEALTHY, T0, T0 + SEC, T0 + 5 * SEC);
        assertThat(Outages.probeDue(s, T0 + 9 * SEC, POLICY)).isFalse();
        assertThat(Outages.probeDue(s, T0 + 10 * SEC, POLICY)).isTrue();
        s = Outages.probed(s, T0 + 10 * SEC, false);
        assertThat(s.degraded()).isTrue();
        assertThat(s.since()).as("the episode goes on").isEqualTo(T0 + 5 * SEC);
        assertThat(Outages.probeDue(s, T0 + 14 * SEC, POLICY)).isFalse();
        assertThat(Outages.probeDue(s, T0 + 15 * SEC, POLICY)).isTrue();
        assertThat(Outages.answered(s)).as("a late answer does not end an episode").isEqualTo(s);
        assertThat(Outages.probed(s, T0 + 15 * SEC, true)).isEqualTo(Outages.State.HEALTHY);
        assertThat(Outages.probeDue(Outages.State.HEALTHY, T0 + 99 * SEC, POLICY)).isFalse();
    }

    @Test
    void theShareIsTheLargerOfTheHintAndTheLiveProcessesSeen() {
        assertThat(Outages.share(1, 0)).as("nothing seen yet: the hint").isEqualTo(1);
        assertThat(Outages.share(1, 16)).isEqualTo(16);
        assertThat(Outages.share(8, 3)).as("the hint is a floor").isEqualTo(8);
        LeafLimit shared = Outages.share(new LeafLimit(20, 100, 0.2, true), 16);
        assertThat(shared.ceilingRps()).isEqualTo(1.25);
        assertThat(shared.burst()).isEqualTo(6.25);
        assertThat(Outages.share(new LeafLimit(20, 10, 0.2, true), 16).burst()).as("at least one token").isEqualTo(1);
    }

    @Test
    void aLeafStartsAnEpisodeDrainedAndOwesWhatItSpentOnItsReturn() {
        LeafLimit local = new LeafLimit(5, 25, 0.2, true); // capacity 25 - 0.5 s x 5/s = 22.5
        assertThat(Outages.entryDrain(null, T0, local)).as("a new local bucket's tokens").isEqualTo(22);
        LeafState half = new LeafState(10, T0, 5, 5, Time.NEVER, Time.NEVER, Time.NEVER, Time.NEVER, 0);
        assertThat(Outages.entryDrain(half, T0 + SEC, local)).as("10 + 1 s of refill").isEqualTo(15);
        LeafState inDebt = new LeafState(-3, T0, 5, 5, Time.NEVER, Time.NEVER, Time.NEVER, Time.NEVER, 0);
        assertThat(Outages.entryDrain(inDebt, T0, local)).isZero();

        assertThat(Outages.returnDebt(null, T0, local)).as("not used locally: nothing owed").isZero();
        assertThat(Outages.returnDebt(inDebt, T0, local)).as("22.5 + 3 spent").isEqualTo(25);
        assertThat(Outages.returnDebt(inDebt, T0 + 2 * SEC, local)).as("10 refilled since").isEqualTo(15);
        assertThat(Outages.returnDebt(inDebt, T0 + 60 * SEC, local)).as("refilled long since").isZero();
    }

    @Test
    void aPolicyOutOfRangeIsRefusedNamingTheValues() {
        assertThatThrownBy(() -> new Outages.Policy(0, SEC, SEC)).hasMessageContaining("failures must be >= 1")
                .hasMessageContaining("but were 0, 1000000000 ns and 1000000000 ns");
    }
}
