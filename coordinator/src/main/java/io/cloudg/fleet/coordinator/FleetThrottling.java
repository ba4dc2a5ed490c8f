package io.cloudg.fleet.coordinator;

import io.cloudg.fleet.protocol.WireCounts;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.report.ScopeCounters;
import io.cloudg.resilience.report.ThrottlingStats;
import java.util.Map;

/**
 * The run's throttling counters over the whole fleet: the coordinator's own (discovery) plus what every
 * execution reported, duplicates included (their calls were made). The governor's report is built from
 * them as in the embedded mode.
 */
public final class FleetThrottling {
    private final ThrottlingStats stats;

    public FleetThrottling(ThrottlingStats stats) {
        this.stats = stats;
    }

    ThrottlingStats stats() {
        return stats;
    }

    void add(WireThrottling t) {
        for (Map.Entry<String, WireCounts> e : t.scopes().entrySet()) {
            add(stats.counters(Scope.parse(e.getKey())), e.getValue());
        }
        t.skipped().forEach((scope, reason) -> stats.skipped(Scope.parse(scope), reason));
    }

    /** Adds counts through the counters' own operations (they offer no bulk add). */
    private static void add(ScopeCounters c, WireCounts n) {
        repeat(n.calls(), c::call);
        repeat(n.throttled(), c::throttled);
        repeat(n.transientErrors(), c::transientError);
        repeat(n.retries(), c::retry);
        repeat(n.gaveUp(), c::gaveUp);
        repeat(n.rejected(), c::rejected);
        repeat(n.breakerTrips(), c::breakerTrip);
        c.waited(n.waitNanos());
    }

    private static void repeat(long n, Runnable op) {
        for (long i = 0; i < n; i++) {
            op.run();
        }
    }
}
