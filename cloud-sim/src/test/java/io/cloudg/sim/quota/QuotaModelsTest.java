package io.cloudg.sim.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.core.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure quota models: fixed windows, whole-second refill, bursting neighbours, several buckets per call. */
class QuotaModelsTest {
    private static final long SECOND = 1_000_000_000L;
    private static final CallScope SCOPE = new CallScope(Provider.AZURE, "sub", "global", "resourcegraph", "ResourcesQuery");

    @Test
    void aFixedWindowAdmitsItsCallsThenNothingUntilItEndsThenAllOfThemAgain() {
        FixedWindow.Config c = new FixedWindow.Config(WindowLimit.of(15, Duration.ofSeconds(5),
            WindowLimit.Alignment.FIRST_CALL), Neighbour.NONE, 1, true);
        FixedWindow.State s = FixedWindow.initial();
        long now = 7 * SECOND + 123;
        for (int i = 0; i < 15; i++) {
            Step<FixedWindow.State> step = FixedWindow.take(s, now + i * 1000, c);
            assertThat(step.admission().admitted()).as("call %d", i).isTrue();
            assertThat(step.admission().remaining()).isEqualTo(14 - i);
            s = step.state();
        }
        long later = now + 2 * SECOND;
        Step<FixedWindow.State> refused = FixedWindow.take(s, later, c);
        assertThat(refused.admission().admitted()).isFalse();
        assertThat(refused.admission().retryAfterNanos()).as("until the window that opened at the first call ends")
            .isEqualTo(now + 5 * SECOND - later);
        assertThat(FixedWindow.take(refused.state(), now + 5 * SECOND - 1, c).admission().admitted()).isFalse();
        Step<FixedWindow.State> reset = FixedWindow.take(refused.state(), now + 5 * SECOND, c);
        assertThat(reset.admission().admitted()).isTrue();
        assertThat(reset.admission().remaining()).isEqualTo(14);
        assertThat(reset.admission().fullAfterNanos()).isEqualTo(5 * SECOND);
    }

    @Test
    void clockAlignedWindowsStartOnMultiplesOfTheirLength() {
        FixedWindow.Config c = new FixedWindow.Config(WindowLimit.of(2, Duration.ofMinutes(1), WindowLimit.Alignment.CLOCK),
            Neighbour.NONE, 1, true);
        long minute = 60 * SECOND;
        FixedWindow.State s = FixedWindow.initial();
        s = FixedWindow.take(s, 3 * minute + 50 * SECOND, c).state();
        s = FixedWindow.take(s, 3 * minute + 51 * SECOND, c).state();
        Step<FixedWindow.State> third = FixedWindow.take(s, 3 * minute + 52 * SECOND, c);
        assertThat(third.admission().admitted()).isFalse();
        assertThat(third.admission().retryAfterNanos()).isEqualTo(8 * SECOND);
        assertThat(FixedWindow.take(third.state(), 4 * minute, c).admission().admitted())
            .as("the next minute starts 10 s after the first call, not 60 s").isTrue();
    }

    @Test
    void aWindowNeighbourTakesItsShareAndBurstsOnlyInSomeWindowsTheSameForTheSameSeed() {
        Neighbour n = new Neighbour(0.2, 20 * SECOND, 0.5);
        FixedWindow.Config c = new FixedWindow.Config(WindowLimit.of(10, Duration.ofSeconds(5),
            WindowLimit.Alignment.CLOCK), n, 42, true);
        List<Integer> perWindow = admittedPerWindow(c, 200);
        assertThat(perWindow).allMatch(a -> a == 8 || a == 3, "8 left by the steady share, 3 when a burst takes 5 more");
        long bursty = perWindow.stream().filter(a -> a == 3).count();
        // the chance of a burst in a 5 s window with one per 20 s on average is 1 - e^-0.25 = 22%
        assertThat(bursty).isBetween(20L, 70L);
        assertThat(admittedPerWindow(c, 200)).isEqualTo(perWindow);
        assertThat(admittedPerWindow(new FixedWindow.Config(c.limit(), n, 43, true), 200)).isNotEqualTo(perWindow);
    }

    /** Calls everything the window admits, at its end, in each of {@code windows} consecutive windows. */
    private static List<Integer> admittedPerWindow(FixedWindow.Config c, int windows) {
        FixedWindow.State s = FixedWindow.initial();
        List<Integer> out = new ArrayList<>();
        for (int w = 0; w < windows; w++) {
            long t = w * 5 * SECOND + 5 * SECOND - 1;
            int admitted = 0;
            for (int i = 0; i < 20; i++) {
                Step<FixedWindow.State> step = FixedWindow.take(s, t, c);
                s = step.state();
                if (step.admission().admitted()) {
                    admitted++;
                }
            }
            out.add(admitted);
        }
        return out;
    }

    @Test
    void aWholeSecondBucketGainsItsRateOnlyAtEachSecond() {
        TokenBucket.Config c = new TokenBucket.Config(new Limit(20, 100, Refill.WHOLE_SECOND), Neighbour.NONE, 1, true);
        long t0 = 5 * SECOND + SECOND / 3;
        TokenBucket.State s = TokenBucket.initial(c, t0);
        for (int i = 0; i < 100; i++) {
            s = TokenBucket.take(s, t0, c).state();
        }
        Step<TokenBucket.State> empty = TokenBucket.take(s, t0 + SECOND - 1, c);
        assertThat(empty.admission().admitted()).as("no token before a whole second has passed").isFalse();
        assertThat(empty.admission().retryAfterNanos()).isEqualTo(1);
        s = empty.state();
        int admitted = 0;
        long t1 = t0 + SECOND;
        while (true) {
            Step<TokenBucket.State> step = TokenBucket.take(s, t1, c);
            s = step.state();
            if (!step.admission().admitted()) {
                break;
            }
            admitted++;
        }
        assertThat(admitted).as("the whole second's 20 at once").isEqualTo(20);
        // continuous refill would have had a token after 1/20 s
        TokenBucket.Config cont = new TokenBucket.Config(new Limit(20, 100), Neighbour.NONE, 1, true);
        TokenBucket.State cs = TokenBucket.initial(cont, t0);
        for (int i = 0; i < 100; i++) {
            cs = TokenBucket.take(cs, t0, cont).state();
        }
        assertThat(TokenBucket.take(cs, t0 + SECOND / 20, cont).admission().admitted()).isTrue();
    }

    @Test
    void aBurstingNeighbourEmptiesPartOfTheBucketAtSeededMoments() {
        Neighbour n = new Neighbour(0, 10 * SECOND, 0.5);
        TokenBucket.Config c = new TokenBucket.Config(new Limit(1, 100), n, 9, true);
        TokenBucket.State s = TokenBucket.initial(c, 0);
        TokenBucket.State later = TokenBucket.advance(s, 600 * SECOND, c);
        // about 60 bursts in 10 minutes; each takes what is there up to 50 while the bucket refills at 1/s
        assertThat(later.bursts()).isBetween(35L, 90L);
        assertThat(later.neighbourTokens()).isGreaterThan(400);
        assertThat(TokenBucket.advance(s, 600 * SECOND, c)).as("the same seed, the same schedule").isEqualTo(later);
        // stepping through time in small steps reaches the same state as one big step
        TokenBucket.State stepped = s;
        for (long t = SECOND; t <= 600 * SECOND; t += SECOND) {
            stepped = TokenBucket.advance(stepped, t, c);
        }
        assertThat(stepped.bursts()).isEqualTo(later.bursts());
        assertThat(stepped.neighbourTokens()).isCloseTo(later.neighbourTokens(), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aCallChargedToSeveralBucketsSpendsNothingWhenOneRefuses() {
        ManualClock clock = new ManualClock();
        QuotaBook book = new QuotaBook(clock, true, s -> Neighbour.NONE, 1);
        BucketRef principal = new BucketRef("azure/sub/alice/reads", new Limit(0.001, 5));
        BucketRef global = new BucketRef("azure/sub/reads", new Limit(0.001, 3));
        for (int i = 0; i < 3; i++) {
            assertThat(book.acquire(List.of(principal, global), SCOPE).admitted()).isTrue();
        }
        Charge refused = book.acquire(List.of(principal, global), SCOPE);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.refused()).isEqualTo(1);
        assertThat(book.available("azure/sub/alice/reads")).as("the principal's bucket was not charged").isEqualTo(2);
        List<BucketStats> stats = book.snapshot();
        assertThat(stats.get(0).key()).isEqualTo("azure/sub/alice/reads");
        assertThat(stats.get(0).calls()).isEqualTo(3);
        assertThat(stats.get(1).throttled()).isEqualTo(1);
        assertThat(stats.get(1).calls()).isEqualTo(4);
    }
}
