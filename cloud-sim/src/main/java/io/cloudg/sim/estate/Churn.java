package io.cloudg.sim.estate;

import io.cloudg.sim.config.ChurnSpec;
import java.util.SplittableRandom;

/**
 * Which resources churn while a map runs, decided from the seed and each resource's stable key (its ARN,
 * ARM id or asset name) alone, so every provider and every regeneration of a shard agrees.
 */
final class Churn {
    /** Index offset of created siblings: {@code i} becomes {@code SIBLING + i} in generated names. */
    static final int SIBLING = 1_000_000_000;

    private final ChurnSpec spec;
    private final Ids ids;

    Churn(ChurnSpec spec, Ids ids) {
        this.spec = spec;
        this.ids = ids;
    }

    boolean none() {
        return spec.none();
    }

    /** The lifetime of an existing resource: {@link Lifetime#ALWAYS}, or deleted during the window. */
    Lifetime existing(String key) {
        if (spec.deleted() == 0) {
            return Lifetime.ALWAYS;
        }
        SplittableRandom r = ids.random("churn/delete/" + key);
        return r.nextDouble() < spec.deleted() ? Lifetime.deletedAt(moment(r)) : Lifetime.ALWAYS;
    }

    /** The lifetime of the sibling created next to {@code key}'s resource; null when none is. */
    Lifetime sibling(String key) {
        if (spec.created() == 0) {
            return null;
        }
        SplittableRandom r = ids.random("churn/create/" + key);
        return r.nextDouble() < spec.created() ? Lifetime.createdAt(moment(r)) : null;
    }

    private long moment(SplittableRandom r) {
        long from = spec.from().toNanos();
        long span = spec.until().toNanos() - from;
        return from + (span <= 0 ? 0 : r.nextLong(span));
    }
}
