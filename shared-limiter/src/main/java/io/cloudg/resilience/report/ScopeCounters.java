package io.cloudg.resilience.report;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Counters of one service scope. Striped ({@link LongAdder}), so that threads calling different
 * operations of one service do not contend on a cache line. The counters of a {@link ThrottlingStats}
 * also add every event to its totals, so that reading the totals does not walk every scope.
 */
public final class ScopeCounters {
    final LongAdder calls = new LongAdder();
    final LongAdder throttled = new LongAdder();
    final LongAdder transientErrors = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder gaveUp = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder breakerTrips = new LongAdder();
    final LongAdder waitNanos = new LongAdder();
    /** The counters every event is also added to (a {@link ThrottlingStats}'s totals), or null. */
    private volatile ScopeCounters total;

    public ScopeCounters() {
        this(null);
    }

    ScopeCounters(ScopeCounters total) {
        this.total = total;
    }

    public void call() {
        add(c -> c.calls, 1);
    }

    public void throttled() {
        add(c -> c.throttled, 1);
    }

    public void transientError() {
        add(c -> c.transientErrors, 1);
    }

    public void retry() {
        add(c -> c.retries, 1);
    }

    public void gaveUp() {
        add(c -> c.gaveUp, 1);
    }

    public void rejected() {
        add(c -> c.rejected, 1);
    }

    public void breakerTrip() {
        add(c -> c.breakerTrips, 1);
    }

    public void waited(long nanos) {
        if (nanos > 0) {
            add(c -> c.waitNanos, nanos);
        }
    }

    /** Adds {@code n} to one counter of this scope and the same counter of the totals. */
    private void add(Function<ScopeCounters, LongAdder> counter, long n) {
        counter.apply(this).add(n);
        ScopeCounters t = total;
        if (t != null) {
            counter.apply(t).add(n);
        }
    }

    /** A consistent-enough copy for reporting. */
    public Counts snapshot() {
        return new Counts(calls.sum(), throttled.sum(), transientErrors.sum(), retries.sum(), gaveUp.sum(),
                rejected.sum(), breakerTrips.sum(), waitNanos.sum());
    }

    /** Stops adding to the totals (their stats were cleared). */
    void detach() {
        total = null;
    }

    void reset() {
        for (LongAdder a : new LongAdder[] {calls, throttled, transientErrors, retries, gaveUp, rejected, breakerTrips,
                waitNanos}) {
            a.reset();
        }
    }
}
