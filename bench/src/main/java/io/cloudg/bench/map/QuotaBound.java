package io.cloudg.bench.map;

import io.cloudg.sim.SimStats;
import io.cloudg.sim.quota.BucketStats;
import java.util.HashMap;
import java.util.Map;

/**
 * The shortest time in which the provider's quotas let the calls a map made be answered: each bucket
 * starts full ({@code burst}) and refills at {@code rate}, so admitting {@code n} calls takes at least
 * {@code (n - burst) / rate} seconds; the busiest bucket bounds the whole map, however many workers.
 */
public record QuotaBound(double seconds, String bucket, long admitted) {
    /** The bound of the calls admitted between {@code before} and {@code after} (one map of a longer run). */
    public static QuotaBound between(SimStats before, SimStats after) {
        Map<String, Long> earlier = new HashMap<>();
        before.buckets().forEach(b -> earlier.put(b.key(), b.admitted()));
        QuotaBound best = new QuotaBound(0, "-", 0);
        for (BucketStats b : after.buckets()) {
            long admitted = b.admitted() - earlier.getOrDefault(b.key(), 0L);
            double s = Math.max(0, (admitted - b.burst()) / b.rate());
            if (s > best.seconds() || (best.admitted() < admitted && best.seconds() == 0 && s == 0)) {
                best = new QuotaBound(s, b.key(), admitted);
            }
        }
        return best;
    }
}
