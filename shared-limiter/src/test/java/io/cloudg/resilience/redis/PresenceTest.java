package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Leaves;
import io.cloudg.resilience.core.Reservation;
import org.junit.jupiter.api.Test;

/**
 * The pure rules of {@link Presence}: who is live, missing (presumed degraded) or gone, and what a healthy process
 * may spend of a shared bucket meanwhile; and that the fleet, the degraded processes' local pacing included, then
 * spends the quota and no more.
 */
class PresenceTest {
    static final long SEC = 1_000_000_000L;
    static final long T0 = 3_600 * SEC;
    static final Presence.Policy POLICY = new Presence.Policy(20 * SEC, 300 * SEC);
    static final long N = io.cloudg.resilience.core.Time.NEVER;

    @Test
    void silentForTheLapseIsLiveLongerIsMissingUntilForgotten() {
        assertThat(Presence.standing(T0, T0, POLICY)).isEqualTo(Presence.Standing.LIVE);
        assertThat(Presence.standing(T0 - 20 * SEC, T0, POLICY)).as("at the lapse").isEqualTo(Presence.Standing.LIVE);
        assertThat(Presence.standing(T0 - 20 * SEC - 1, T0, POLICY)).isEqualTo(Presence.Standing.MISSING);
        assertThat(Presence.standing(T0 - 300 * SEC + 1, T0, POLICY)).isEqualTo(Presence.Standing.MISSING);
        assertThat(Presence.standing(T0 - 300 * SEC, T0, POLICY)).as("at the forget time").isEqualTo(Presence.Standing.GONE);
    }

    @Test
    void theCountIsTheLiveAndTheMissingTheFleetBoth() {
        Presence.Count c = Presence.count(new long[] {T0, T0 - 5 * SEC, T0 - 30 * SEC, T0 - 400 * SEC}, T0, POLICY);
        assertThat(c).isEqualTo(new Presence.Count(2, 1));
        assertThat(c.fleet()).isEqualTo(3);
    }

    @Test
    void nobodyMissingSpendsAllMissingOnesLeaveTheirShare() {
        assertThat(Presence.refillShare(1, new Presence.Count(3, 0))).isEqualTo(1.0);
        assertThat(Presence.refillShare(1, new Presence.Count(2, 1))).as("1 of 3 missing").isEqualTo(2.0 / 3);
        assertThat(Presence.refillShare(1, new Presence.Count(1, 3))).as("3 of 4 missing").isEqualTo(0.25);
        // a degraded process divides by the hint when it is larger: it takes 1/8, the others leave 1/8
        assertThat(Presence.refillShare(8, new Presence.Count(2, 1))).isEqualTo(7.0 / 8);
        // a count that does not include this process yet still leaves this process its own share
        assertThat(Presence.refillShare(1, new Presence.Count(0, 2))).isEqualTo(1.0 / 3);
    }

    /**
     * The rule's point: k of n processes degraded, each pacing at {@code limit / max(hint, n)} (Outages.share), and
     * the n - k healthy ones sharing the bucket at {@link Presence#refillShare}, send the limit between them, not
     * {@code limit x (1 + k/n)}.
     */
    @Test
    void degradedAndHealthyTogetherSpendTheLimit() {
        double limit = 30;
        for (int hint : new int[] {1, 4, 8}) {
            for (int n = 1; n <= 8; n++) {
                for (int k = 0; k < n; k++) {
                    int share = Outages.share(hint, n);
                    double degraded = k * limit / share;
                    double healthy = limit * Presence.refillShare(hint, new Presence.Count(n - k, k));
                    assertThat(degraded + healthy).as("hint %d, %d of %d degraded", hint, k, n).isLessThanOrEqualTo(limit + 1e-9);
                    if (share == n) {
                        assertThat(degraded + healthy).as("the whole quota is spent").isCloseTo(limit, org.assertj.core.data.Offset.offset(1e-9));
                    }
                }
            }
        }
    }

    /** {@link Leaves#reserve(LeafState, long, LeafLimit, int, double)}: the refill and the capacity scaled, the leaf's rate kept. */
    @Test
    void aLeafSpentAtAShareRefillsAndHoldsThatShare() {
        LeafLimit l = new LeafLimit(30, 30, 0.2, true); // capacity 30 - 0.5 x 30 = 15
        Reservation<LeafState> fresh = Leaves.reserve(null, T0, l, 1, 2.0 / 3);
        assertThat(fresh.state().tokens()).isEqualTo(15 * (2.0 / 3) - 1);
        LeafState drained = new LeafState(0, T0, 30, 30, N, N, N, N, 0, 0);
        Reservation<LeafState> r = Leaves.reserve(drained, T0 + SEC, l, 1, 2.0 / 3);
        assertThat(r.state().tokens()).as("one second at 20/s, 1 taken").isCloseTo(9.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.state().rate()).as("the stored rate is the leaf's").isEqualTo(30);
        Reservation<LeafState> owing = Leaves.reserve(new LeafState(-1, T0, 30, 30, N, N, N, N, 0, 0), T0, l, 1, 0.5);
        assertThat(owing.waitNanos()).as("2 short at 15/s").isEqualTo((long) Math.ceil(2 * 1e9 / 15));
        assertThat(Leaves.reserve(drained, T0 + SEC, l, 1, 1.0)).as("share 1 is reserve").isEqualTo(Leaves.reserve(drained, T0 + SEC, l, 1));
        assertThatThrownBy(() -> Leaves.reserve(drained, T0, l, 1, 0)).hasMessageContaining("must be in (0, 1], but was 0.0");
    }

    @Test
    void aPolicyForgetsNoSoonerThanItLapses() {
        assertThatThrownBy(() -> new Presence.Policy(20 * SEC, 10 * SEC)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("but were 20000000000 ns and 10000000000 ns");
    }
}
