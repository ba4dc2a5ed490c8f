package io.cloudg.resilience.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The totals a ThrottlingStats keeps as events happen equal the sum over its scopes. */
class ThrottlingStatsTest {
    static Counts sum(ThrottlingStats stats) {
        Counts t = Counts.ZERO;
        for (Counts c : stats.countsByScope().values()) {
            t = t.plus(c);
        }
        return t;
    }

    @Test
    void totalsEqualTheSumOverScopesUnderConcurrentEvents() throws Exception {
        ThrottlingStats stats = new ThrottlingStats();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int worker = w;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        ScopeCounters c = stats.counters(Scope.of("aws", "a" + (i % 50), "r" + worker, "ec2"));
                        c.call();
                        if (i % 7 == 0) {
                            c.throttled();
                            c.retry();
                            c.waited(1_000);
                        }
                        if (i % 11 == 0) {
                            c.transientError();
                            c.gaveUp();
                            c.rejected();
                            c.breakerTrip();
                        }
                        c.waited(0);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Counts totals = stats.totals();
        assertThat(totals).isEqualTo(sum(stats));
        assertThat(totals.calls()).isEqualTo(40_000);
        assertThat(totals.throttled()).isEqualTo(8 * 715);
        assertThat(totals.waitNanos()).isEqualTo(8 * 715 * 1_000L);
        assertThat(totals.breakerTrips()).isEqualTo(8 * 455);
    }

    @Test
    void clearForgetsTheTotalsAndDetachesCountersHandedOutBefore() {
        ThrottlingStats stats = new ThrottlingStats();
        ScopeCounters before = stats.counters(Scope.of("aws", "a", "r", "ec2"));
        before.call();
        before.throttled();
        stats.clear();
        assertThat(stats.totals()).isEqualTo(Counts.ZERO);
        before.call();
        assertThat(stats.totals()).as("a counter of before the clear").isEqualTo(Counts.ZERO);
        stats.counters(Scope.of("aws", "a", "r", "ec2")).call();
        assertThat(stats.totals().calls()).isEqualTo(1);
        assertThat(stats.totals()).isEqualTo(sum(stats));
    }
}
