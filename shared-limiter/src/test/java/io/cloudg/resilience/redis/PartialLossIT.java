package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A partial loss of Redis: one process of three loses it (a {@link StallingProxy} between its store and a real
 * Redis) while the two others keep it (direct connections). The lost one degrades and paces locally at a third
 * of the leaf's limit; the fleet as a whole must stay within the limit all the same, counted per second of the
 * scripts' clock: the healthy two leave the missing process's third unspent once it is overdue in the set of
 * processes. When the lost process comes back, the healthy ones spend the whole limit again.
 *
 * <p>Every store runs on one injected clock (the scripts' "Redis time", {@link StoreClock#injected}; each
 * store's own timing too), which the test moves from one caller's next call to the next: a caller calls again
 * the moment its last grant went out (the time it was admitted plus the wait it was given), so every store asks
 * for more than its share all the time. Nothing sleeps; nothing is measured on this JVM's clock.
 */
class PartialLossIT {
    static final Scope LEAF = Scope.of("aws", "343434343434", "us-east-1", "ec2", "DescribeInstances");
    static final double RATE = 30;
    /** Capacity 30 - 0.5 s x 30/s = 15. */
    static final LeafLimit LIMIT = new LeafLimit(RATE, 30, 0.2, false);
    static final long SEC = 1_000_000_000L;

    static AdmitRequest admit() {
        return new AdmitRequest("aws", null, Scope.account("aws", "343434343434"), null, LEAF, LIMIT, null, null, 1);
    }

    /** One caller on one store: when it calls next, and when each of its grants went out (the clock's ns). */
    static final class Caller {
        final String name;
        final DegradingStateStore store;
        long next;
        final List<Long> sent = new ArrayList<>();

        Caller(String name, DegradingStateStore store, long next) {
            this.name = name;
            this.store = store;
            this.next = next;
        }
    }

    static RedisStateStore store(String url, ManualTimeSource time, Duration timeout) {
        RedisSettings s = RedisSettings.builder().url(url).keyPrefix("partial").build();
        return RedisStateStore.builder(RedisClients.create(s, k -> null)).ownsClient(true).keyPrefix("partial")
                .clock(StoreClock.injected(time)).time(time).callTimeout(timeout).build();
    }

    /** Degrades at the first failure (the streak rule is RedisStallIT's) and probes every 30 s. */
    static DegradingStateStore degrading(RedisStateStore redis, ManualTimeSource time) {
        RedisSettings s = RedisSettings.builder().url("redis://127.0.0.1:1").keyPrefix("partial")
                .degradeAfterSeconds(0.0).probeIntervalSeconds(30.0).build();
        return StateStores.degrading(s, redis, time);
    }

    /** Runs every caller until the clock reaches {@code until}, always the one due first. */
    static void run(List<Caller> callers, ManualTimeSource time, long until) {
        PriorityQueue<Caller> due = new PriorityQueue<>((a, b) -> Long.compare(a.next, b.next));
        due.addAll(callers);
        while (due.peek().next < until) {
            Caller c = due.poll();
            time.advanceTo(c.next);
            long wait = c.store.admit(admit()).waitNanos();
            c.sent.add(c.next + wait);
            c.next += wait;
            due.add(c);
        }
    }

    /**
     * Runs the callers a tenth of a second of the clock at a time until {@code condition} holds, and returns the
     * clock then; fails if the clock passes {@code deadline} first. (A heartbeat's reply is handled when it
     * comes, on the client's threads, while the callers go on: the clock, not this JVM's, bounds the wait.)
     */
    static long runUntil(String what, List<Caller> callers, ManualTimeSource time, long deadline,
                         BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            assertThat(time.nanoTime()).as("the clock when %s", what).isLessThan(deadline);
            long step = time.nanoTime() + SEC / 10;
            run(callers, time, step);
            time.advanceTo(Math.max(step, time.nanoTime())); // no caller due within the step: the clock moves on
        }
        return time.nanoTime();
    }

    /** The grants of all callers that went out in [from, to), per second of the clock from {@code from}. */
    static TreeMap<Long, Integer> perSecond(List<Caller> callers, long from, long to) {
        TreeMap<Long, Integer> counts = new TreeMap<>();
        for (long s = 0; s < (to - from) / SEC; s++) {
            counts.put(s, 0);
        }
        for (Caller c : callers) {
            for (long t : c.sent) {
                if (t >= from && t < to) {
                    counts.merge((t - from) / SEC, 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    static int total(List<Caller> callers, long from, long to) {
        return perSecond(callers, from, to).values().stream().mapToInt(Integer::intValue).sum();
    }

    static int sentBy(Caller c, long from, long to) {
        return (int) c.sent.stream().filter(t -> t >= from && t < to).count();
    }

    @Test
    void oneOfThreeCutOffTheFleetStaysWithinTheQuotaAndGetsItAllBackWhenItReturns() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        try (TestRedis redis = TestRedis.embedded();
             StallingProxy proxy = new StallingProxy("127.0.0.1", redis.port())) {
            // each wrapper closes its Redis store
            RedisStateStore lostRedis = store("redis://127.0.0.1:" + proxy.port(), time, Duration.ofSeconds(1));
            RedisStateStore redis1 = store(redis.url(), time, Duration.ofSeconds(3));
            RedisStateStore redis2 = store(redis.url(), time, Duration.ofSeconds(3));
            try (DegradingStateStore lost = degrading(lostRedis, time);
                 DegradingStateStore healthy1 = degrading(redis1, time);
                 DegradingStateStore healthy2 = degrading(redis2, time)) {
                long t0 = time.nanoTime();
                List<Caller> callers = List.of(new Caller("lost", lost, t0), new Caller("healthy1", healthy1, t0 + 1),
                        new Caller("healthy2", healthy2, t0 + 2));

                // all three on Redis for 20 s: the leaf's 30/s between them
                run(callers, time, t0 + 20 * SEC);
                assertThat(lost.degraded()).isFalse();
                assertThat(total(callers, t0 + 5 * SEC, t0 + 20 * SEC)).as("15 s at 30/s, all three healthy")
                        .isBetween(445, 455);

                // the lost process's replies stall from now on: it degrades and paces at a third of the limit; once
                // its heartbeat is overdue (20 s after its last, then up to one beat of the others' 5 s), the healthy
                // two leave its third unspent
                long cut = time.nanoTime();
                proxy.stall();
                long shared = runUntil("the healthy two leave the lost one's third", callers, time, cut + 40 * SEC,
                        () -> lost.degraded() && redis1.refillShare() == 2.0 / 3 && redis2.refillShare() == 2.0 / 3);
                assertThat(lost.share()).as("its share: the three processes it last saw").isEqualTo(3);

                // from then on the fleet sends 30/s, every second, the lost process's local 10/s included
                long from = shared + SEC;
                long to = from + 60 * SEC;
                run(callers, time, to);
                TreeMap<Long, Integer> seconds = perSecond(callers, from, to);
                assertThat(sentBy(callers.get(0), from, to)).as("the lost process paced at 10/s on its own")
                        .isBetween(595, 605);
                assertThat(seconds.values()).as("grants per second of the fleet, the lost process's included: %s", seconds)
                        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo((int) RATE + 1));
                assertThat(total(callers, from, to)).as("60 s of the fleet: at most 60 s x 30/s (+ a burst of 15)")
                        .isLessThanOrEqualTo(60 * (int) RATE + 15)
                        .isGreaterThanOrEqualTo(60 * (int) RATE - 30);

                // Redis answers the lost process again: it returns at its next probe and says it is live, and the
                // healthy ones spend the whole limit again once they have heard it (one beat)
                proxy.flow();
                long back = time.nanoTime();
                long whole = runUntil("all three spend the whole limit again", callers, time, back + 90 * SEC,
                        () -> !lost.degraded() && redis1.refillShare() == 1.0 && redis2.refillShare() == 1.0);
                run(callers, time, whole + 21 * SEC);
                assertThat(total(callers, whole + SEC, whole + 21 * SEC)).as("20 s at 30/s, all three healthy again")
                        .isBetween(590, 610);
                assertThat(perSecond(callers, back, whole + 21 * SEC).values()).as("never over the quota on the way back")
                        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo((int) RATE + 1));
            }
        }
    }

    /**
     * A process that stops saying it is live counts as missing from the lapse on, and as gone (no longer
     * presumed degraded) after the forget time: a crashed process halves nobody for longer than that. A process
     * that ends cleanly leaves at once and is never missing.
     */
    @Test
    void aSilentProcessIsMissingUntilForgottenOneThatClosesIsNeverMissing() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        try (TestRedis redis = TestRedis.embedded();
             StallingProxy proxy = new StallingProxy("127.0.0.1", redis.port());
             RedisStateStore healthy = store(redis.url(), time, Duration.ofSeconds(3))) {
            // the crashed process's heartbeats never reach Redis once its proxy stalls
            RedisStateStore crashed = store("redis://127.0.0.1:" + proxy.port(), time, Duration.ofMillis(150));
            RedisStateStore leaving = store(redis.url(), time, Duration.ofSeconds(3));
            try {
                crashed.announce();
                proxy.stall();
                leaving.announce();
                assertThat(healthy.announce()).isEqualTo(3);
                leaving.close();
                assertThat(healthy.announce()).as("the one that left is not counted").isEqualTo(2);
                assertThat(healthy.refillShare()).isEqualTo(1.0);

                time.advance(Duration.ofSeconds(20));
                assertThat(healthy.announce()).isEqualTo(2);
                assertThat(healthy.refillShare()).as("silent for the lapse: still live").isEqualTo(1.0);
                time.advance(Duration.ofSeconds(1));
                assertThat(healthy.announce()).as("missing processes count in the fleet").isEqualTo(2);
                assertThat(healthy.refillShare()).as("silent past the lapse: presumed degraded").isEqualTo(0.5);

                time.advance(Duration.ofSeconds(278));
                healthy.announce();
                assertThat(healthy.refillShare()).as("299 s silent").isEqualTo(0.5);
                time.advance(Duration.ofSeconds(1));
                assertThat(healthy.announce()).as("300 s silent: gone").isEqualTo(1);
                assertThat(healthy.refillShare()).isEqualTo(1.0);
            } finally {
                crashed.close();
            }
        }
    }

    /**
     * The share as the scripts apply it is {@link io.cloudg.resilience.core.Leaves#reserve(io.cloudg.resilience.core.LeafState,
     * long, LeafLimit, int, double)}, bit for bit: a new leaf (the general case) and an existing one (the
     * straight-line case), refilled over whole and odd intervals, with and without a wait.
     */
    @Test
    void theScriptsSpendAShareAsTheJavaRuleDoes() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        try (TestRedis redis = TestRedis.embedded();
             StallingProxy proxy = new StallingProxy("127.0.0.1", redis.port());
             RedisStateStore healthy = store(redis.url(), time, Duration.ofSeconds(3));
             RedisStateStore silent = store("redis://127.0.0.1:" + proxy.port(), time, Duration.ofMillis(150))) {
            silent.announce();
            proxy.stall();
            healthy.announce();
            time.advance(Duration.ofSeconds(21));
            healthy.announce();
            double share = healthy.refillShare();
            assertThat(share).isEqualTo(0.5);

            io.cloudg.resilience.core.LeafState expected = null;
            long[] steps = {0, 1, 0, 0, 333_333_333L, 2 * SEC, 0, 0, 0, 0, 17, 5 * SEC};
            for (long step : steps) {
                time.advanceNanos(step);
                long now = time.nanoTime();
                var r = io.cloudg.resilience.core.Leaves.reserve(expected, now, LIMIT, 1, share);
                long wait = healthy.admit(admit()).waitNanos();
                expected = r.state();
                assertThat(wait).as("the wait at +%d ns", step).isEqualTo(r.waitNanos());
                assertThat(healthy.leafState(LEAF).tokens()).as("the tokens at +%d ns", step).isEqualTo(expected.tokens());
                assertThat(healthy.leafState(LEAF).rate()).as("the stored rate is the leaf's").isEqualTo(RATE);
            }
        }
    }
}
