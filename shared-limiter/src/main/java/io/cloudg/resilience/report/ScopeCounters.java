package io.cloudg.resilience.report;

import java.util.concurrent.atomic.LongAdder;

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
        calls.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.call();
        }
    }

    public void throttled() {
        throttled.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.throttled();
        }
    }

    public void transientError() {
        transientErrors.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.transientError();
        }
    }

    public void retry() {
        retries.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.retry();
        }
    }

    public void gaveUp() {
        gaveUp.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.gaveUp();
        }
    }

    public void rejected() {
        rejected.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.rejected();
        }
    }

    public void breakerTrip() {
        breakerTrips.increment();
        ScopeCounters t = total;
        if (t != null) {
            t.breakerTrip();
        }
    }

    public void waited(long nanos) {
        if (nanos > 0) {
            waitNanos.add(nanos);
            ScopeCounters t = total;
            if (t != null) {
                t.waited(nanos);
            }
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
