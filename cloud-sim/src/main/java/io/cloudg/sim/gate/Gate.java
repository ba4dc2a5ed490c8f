package io.cloudg.sim.gate;

import io.cloudg.sim.config.FaultKind;
import io.cloudg.sim.config.FaultRule;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.Counters;
import io.cloudg.sim.fault.FaultEngine;
import io.cloudg.sim.quota.BucketRef;
import io.cloudg.sim.quota.Charge;
import io.cloudg.sim.quota.QuotaBook;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/** The one admission path of every provider call: faults, then quota, then latency. */
public final class Gate {
    private static final long INJECTED_RETRY_AFTER = 1_000_000_000L;

    private final QuotaBook quotas;
    private final FaultEngine faults;
    private final LatencySpec latency;
    private final long perItemNanos;
    private final SplittableRandom jitter;
    private final Counters counters;

    /**
     * @param perItem latency added per item an answer lists (see {@link #itemsNanos})
     */
    public Gate(QuotaBook quotas, FaultEngine faults, LatencySpec latency, Duration perItem, long seed, Counters counters) {
        this.quotas = quotas;
        this.faults = faults;
        this.latency = latency;
        this.perItemNanos = perItem.toNanos();
        this.jitter = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.counters = counters;
    }

    public Counters counters() {
        return counters;
    }

    public QuotaBook quotas() {
        return quotas;
    }

    /**
     * @param bucket the bucket to charge, or null for calls without a quota
     */
    public Verdict enter(CallScope scope, BucketRef bucket) {
        return enter(scope, bucket == null ? List.of() : List.of(bucket));
    }

    /**
     * @param buckets every bucket the call is charged to (all admit it, or it is throttled and none is charged)
     */
    public Verdict enter(CallScope scope, List<BucketRef> buckets) {
        counters.call();
        counters.inFlight().attribute(scope);
        long delay = latencyNanos();
        FaultRule fault = faults.decide(scope);
        if (fault != null) {
            counters.fault();
            if (fault.error() == FaultKind.SLOW) {
                delay += fault.delay().toNanos();
            } else if (fault.error() == FaultKind.THROTTLE) {
                counters.throttled();
                return new Verdict.Throttled(delay, INJECTED_RETRY_AFTER, INJECTED_RETRY_AFTER, true, null);
            } else {
                return new Verdict.Faulted(delay, fault.error());
            }
        }
        if (buckets.isEmpty()) {
            counters.admitted();
            return new Verdict.Proceed(delay, List.of());
        }
        Charge c = quotas.acquire(buckets, scope);
        if (!c.admitted()) {
            counters.throttled();
            return new Verdict.Throttled(delay, c.refusal().retryAfterNanos(), c.refusal().fullAfterNanos(), false,
                buckets.get(c.refused()));
        }
        counters.admitted();
        return new Verdict.Proceed(delay, c.admissions());
    }

    /** Extra latency of an answer that lists {@code items} items. */
    public long itemsNanos(int items) {
        return items <= 0 ? 0 : perItemNanos * items;
    }

    private long latencyNanos() {
        if (latency.isZero()) {
            return 0;
        }
        long j = latency.jitter().toNanos();
        long extra;
        if (j <= 0) {
            extra = 0;
        } else {
            synchronized (jitter) {
                extra = jitter.nextLong(j + 1);
            }
        }
        return latency.base().toNanos() + extra;
    }
}
