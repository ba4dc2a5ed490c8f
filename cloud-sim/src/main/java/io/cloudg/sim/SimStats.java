package io.cloudg.sim;

import io.cloudg.sim.core.Counters;
import io.cloudg.sim.quota.BucketStats;
import java.util.List;

/**
 * A snapshot of the simulator's counters; served as JSON at {@code GET /_sim/stats}.
 *
 * @param buckets per quota bucket: calls, throttled answers, highest admitted in any 1-second window,
 *                configured rate and burst, and how long it stayed empty (in all, and its longest stretch)
 * @param totals  whole-simulator counts
 */
public record SimStats(List<BucketStats> buckets, Counters.Totals totals) {

    /** The bucket with this key, or null. */
    public BucketStats bucket(String key) {
        return buckets.stream().filter(b -> b.key().equals(key)).findFirst().orElse(null);
    }
}
