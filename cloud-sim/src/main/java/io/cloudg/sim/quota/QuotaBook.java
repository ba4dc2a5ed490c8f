package io.cloudg.sim.quota;

import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.SimClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** Owns every bucket, created on first use, and charges calls to one or several of them at once. */
public final class QuotaBook {
    private final ConcurrentHashMap<String, QuotaCell> cells = new ConcurrentHashMap<>();
    private final SimClock clock;
    private final boolean enforcing;
    private final Function<CallScope, Neighbour> neighbours;
    private final long seed;

    /**
     * @param enforcing  false to count without throttling
     * @param neighbours the noisy neighbour of a new bucket, from its first call's scope
     * @param seed       seed of the neighbours' burst schedules (each bucket's is this and its key)
     */
    public QuotaBook(SimClock clock, boolean enforcing, Function<CallScope, Neighbour> neighbours, long seed) {
        this.clock = clock;
        this.enforcing = enforcing;
        this.neighbours = neighbours;
        this.seed = seed;
    }

    /** Charges one bucket. */
    public Admission acquire(BucketRef ref, CallScope scope) {
        return acquire(List.of(ref), scope).admissions().get(0);
    }

    /**
     * Charges every bucket of {@code refs} or none: the call is admitted when each admits it; when one or
     * more refuse, only the refusing buckets count it (as throttled) and no token or window call is spent.
     */
    public Charge acquire(List<BucketRef> refs, CallScope scope) {
        List<QuotaCell> order = new ArrayList<>(refs.size());
        QuotaCell[] byRef = new QuotaCell[refs.size()];
        for (int i = 0; i < refs.size(); i++) {
            byRef[i] = cell(refs.get(i), scope);
            order.add(byRef[i]);
        }
        order.sort(Comparator.comparing(c -> c.key));
        for (QuotaCell c : order) {
            c.lock.lock();
        }
        try {
            long now = clock.nanoTime();
            List<Step<?>> steps = new ArrayList<>(refs.size());
            List<Admission> admissions = new ArrayList<>(refs.size());
            int refused = -1;
            for (int i = 0; i < byRef.length; i++) {
                Step<?> s = byRef[i].peek(now);
                steps.add(s);
                admissions.add(s.admission());
                if (!s.admission().admitted()
                    && (refused < 0 || s.admission().retryAfterNanos() > admissions.get(refused).retryAfterNanos())) {
                    refused = i;
                }
            }
            for (int i = 0; i < byRef.length; i++) {
                if (refused < 0 || !steps.get(i).admission().admitted()) {
                    byRef[i].commit(steps.get(i), now);
                }
            }
            return new Charge(admissions, refused);
        } finally {
            for (int i = order.size() - 1; i >= 0; i--) {
                order.get(i).lock.unlock();
            }
        }
    }

    private QuotaCell cell(BucketRef ref, CallScope scope) {
        QuotaCell c = cells.get(ref.key());
        if (c == null) {
            c = cells.computeIfAbsent(ref.key(), k -> new QuotaCell(k, ref.quota(), neighbours.apply(scope),
                seed ^ Draws.hash(k), enforcing, clock.nanoTime()));
        }
        return c;
    }

    /** Calls the bucket would admit now; -1 for a bucket nobody has called yet. */
    public long available(String key) {
        QuotaCell c = cells.get(key);
        return c == null ? -1 : c.available(clock.nanoTime());
    }

    public boolean enforcing() {
        return enforcing;
    }

    public List<BucketStats> snapshot() {
        long now = clock.nanoTime();
        List<BucketStats> out = new ArrayList<>(cells.size());
        for (QuotaCell c : cells.values()) {
            out.add(c.snapshot(now));
        }
        out.sort(Comparator.comparing(BucketStats::key));
        return out;
    }
}
