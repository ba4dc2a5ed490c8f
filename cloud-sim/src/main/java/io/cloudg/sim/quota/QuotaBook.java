package io.cloudg.sim.quota;

import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.SimClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/** Owns every bucket, created on first use. */
public final class QuotaBook {
    private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final SimClock clock;
    private final boolean enforcing;
    private final ToDoubleFunction<CallScope> neighbourShare;

    /**
     * @param enforcing      false to count without throttling
     * @param neighbourShare share of a new bucket's refill taken by a noisy neighbour, from the first call's
     *                       scope
     */
    public QuotaBook(SimClock clock, boolean enforcing, ToDoubleFunction<CallScope> neighbourShare) {
        this.clock = clock;
        this.enforcing = enforcing;
        this.neighbourShare = neighbourShare;
    }

    public Admission acquire(BucketRef ref, CallScope scope) {
        return bucket(ref, scope).tryAcquire();
    }

    public TokenBucket bucket(BucketRef ref, CallScope scope) {
        TokenBucket b = buckets.get(ref.key());
        if (b == null) {
            b = buckets.computeIfAbsent(ref.key(),
                k -> new TokenBucket(k, ref.limit(), neighbourShare.applyAsDouble(scope), clock, enforcing));
        }
        return b;
    }

    public boolean enforcing() {
        return enforcing;
    }

    public List<BucketStats> snapshot() {
        List<BucketStats> out = new ArrayList<>(buckets.size());
        for (TokenBucket b : buckets.values()) {
            out.add(b.snapshot());
        }
        out.sort(Comparator.comparing(BucketStats::key));
        return out;
    }
}
