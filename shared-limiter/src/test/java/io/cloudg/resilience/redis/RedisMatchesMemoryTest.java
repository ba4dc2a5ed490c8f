package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.BreakerView;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * The Lua scripts against the Java rules they mirror: the same random sequence of admissions, outcomes
 * (successes, throttles with and without Retry-After or a quota window's reset and size, transient and fatal
 * errors, breaker verdicts, probes),
 * limit changes and clock moves goes to a Redis store and to the in-memory store on one manual clock, and
 * every answer, the stored state after every step (the leaf's token balance, refill time, rate, ceiling,
 * AIMD timestamps and throttle count, learned window rate, its breaker, the account bucket) and the snapshots must be identical,
 * to the last bit of every double. State that only the stored balance would reveal (a refill to the wrong
 * cap, a success that rewrote the balance) fails here even when every answer agrees.
 */
class RedisMatchesMemoryTest {
    static final long SEC = 1_000_000_000L;
    static TestRedis redis;
    static RedissonClient client;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.embedded();
        client = redis.client();
    }

    @AfterAll
    static void stopRedis() {
        client.shutdown();
        redis.close();
    }

    record Pair(SlotLease redis, SlotLease memory) {
    }

    @Test
    void randomSequencesGiveIdenticalAnswersAndState() {
        for (long seed = 1; seed <= 6; seed++) {
            run(seed, 1500);
        }
    }

    private void run(long seed, int steps) {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        RedisStateStore r = RedisStateStore.builder(client).keyPrefix("match" + seed).clock(StoreClock.injected(time))
                .build();
        InMemoryStateStore m = new InMemoryStateStore(time);
        r.clear();
        Random rnd = new Random(seed);
        Scope account = Scope.account("aws", "1234567890" + seed);
        List<Scope> leaves = List.of(Scope.of("aws", account.account(), "us-east-1", "ec2", "DescribeA"),
                Scope.of("aws", account.account(), "us-east-1", "ec2", "DescribeB"),
                Scope.of("aws", account.account(), "eu-west-1", "s3", null));
        List<LeafLimit> limits = List.of(new LeafLimit(20, 40, 0.5, true), new LeafLimit(5, 10, 0.5, true),
                new LeafLimit(20, 40, 0.5, false), new LeafLimit(200, 5, 1, true));
        BreakerLimit breaker = new BreakerLimit(3, 10 * SEC, 40 * SEC, 5 * SEC);
        BucketLimit accountLimit = new BucketLimit(50, 60);
        SlotRequest slot = new SlotRequest(account, 4, 30 * SEC);
        List<Pair> held = new ArrayList<>();
        long[] probe = new long[leaves.size()];
        try {
            for (int step = 0; step < steps; step++) {
                int i = rnd.nextInt(leaves.size());
                Scope leaf = leaves.get(i);
                LeafLimit limit = limits.get(rnd.nextInt(10) == 0 ? rnd.nextInt(limits.size()) : i % 2);
                BreakerLimit b = rnd.nextInt(20) == 0 ? null : breaker;
                String what = "seed " + seed + " step " + step;
                int op = rnd.nextInt(10);
                if (op < 5) {
                    AdmitRequest req = new AdmitRequest("aws", null, account, rnd.nextBoolean() ? accountLimit : null,
                            leaf, limit, b, rnd.nextBoolean() ? slot : null, 1);
                    Admission ar = r.admit(req);
                    Admission am = m.admit(req);
                    assertThat(ar.breaker()).as(what).isEqualTo(am.breaker());
                    assertThat(ar.waitNanos()).as(what).isEqualTo(am.waitNanos());
                    assertThat(ar.lease() != null).as(what + " lease").isEqualTo(am.lease() != null);
                    if (ar.lease() != null) {
                        held.add(new Pair(ar.lease(), am.lease()));
                    }
                    if (ar.breaker().probe()) {
                        probe[i] = ar.breaker().probeGeneration();
                    }
                } else if (op < 9) {
                    AttemptOutcome outcome = AttemptOutcome.values()[rnd.nextInt(10) < 6 ? 0 : rnd.nextInt(5)];
                    long retryAfter = outcome == AttemptOutcome.THROTTLED && rnd.nextInt(4) == 0
                            ? (1 + rnd.nextInt(20)) * SEC / 2 : -1;
                    CallVerdict verdict = rnd.nextInt(3) == 0 ? CallVerdict.NONE
                            : outcome == AttemptOutcome.SUCCESS ? CallVerdict.SUCCESS
                            : CallVerdict.values()[rnd.nextInt(CallVerdict.values().length)];
                    long gen = verdict != CallVerdict.NONE && rnd.nextBoolean() ? probe[i] : 0;
                    QuotaWindow window = QuotaWindow.NONE;
                    if (outcome == AttemptOutcome.THROTTLED && rnd.nextInt(3) == 0) {
                        int kind = rnd.nextInt(3); // 0: the reset only, 1: the size only, 2: both
                        long calls = kind == 0 ? 0 : 1 + rnd.nextInt(200);
                        window = new QuotaWindow(kind == 1 ? -1 : rnd.nextInt(6000) * 1_000_000L, calls,
                                calls == 0 ? 0 : (1 + rnd.nextInt(60)) * SEC, null);
                    }
                    Pair release = !held.isEmpty() && rnd.nextBoolean() ? held.remove(rnd.nextInt(held.size())) : null;
                    OutcomeResult or = r.record(new OutcomeRequest(leaf, limit, outcome, retryAfter, b, verdict, gen,
                            release == null ? null : release.redis(), window));
                    OutcomeResult om = m.record(new OutcomeRequest(leaf, limit, outcome, retryAfter, b, verdict, gen,
                            release == null ? null : release.memory(), window));
                    assertThat(or).as(what + " " + outcome + " " + verdict).isEqualTo(om);
                } else {
                    time.advance(Duration.ofMillis(rnd.nextInt(3) == 0 ? rnd.nextInt(20_000) : rnd.nextInt(300)));
                }
                assertSameStoredState(r, m, leaf, account, what);
                if (step % 100 == 99) {
                    assertThat(r.slotsInUse(account)).as(what + " slots").isEqualTo(m.slotsInUse(account));
                    assertSameSnapshot(r.snapshot(), m.snapshot(), what);
                }
            }
            assertSameSnapshot(r.snapshot(), m.snapshot(), "seed " + seed + " end");
        } finally {
            r.clear();
            r.close();
        }
    }

    private static void assertSameStoredState(RedisStateStore r, InMemoryStateStore m, Scope leaf, Scope account,
                                              String what) {
        assertThat(r.leafState(leaf)).as(what + " stored leaf").isEqualTo(m.leafState(leaf));
        assertThat(r.breakerState(leaf)).as(what + " stored breaker").isEqualTo(m.breakerState(leaf));
        assertThat(r.accountBucketState(account)).as(what + " stored account bucket").isEqualTo(m.bucketState(account));
    }

    private static void assertSameSnapshot(StoreSnapshot r, StoreSnapshot m, String what) {
        Comparator<LeafView> byLeaf = Comparator.comparing(l -> l.leaf().toString());
        Comparator<BreakerView> byBreaker = Comparator.comparing(b -> b.leaf().toString());
        assertThat(r.leaves().stream().sorted(byLeaf).toList()).as(what + " leaves")
                .isEqualTo(m.leaves().stream().sorted(byLeaf).toList());
        assertThat(r.breakers().stream().sorted(byBreaker).toList()).as(what + " breakers")
                .isEqualTo(m.breakers().stream().sorted(byBreaker).toList());
    }
}
