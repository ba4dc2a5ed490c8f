package io.cloudg.resilience.report;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one service scope. Striped ({@link LongAdder}), so that threads calling different
 * operations of one service do not contend on a cache line.
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

    public void call() { calls.increment(); }
    public void throttled() { throttled.increment(); }
    public void transientError() { transientErrors.increment(); }
    public void retry() { retries.increment(); }
    public void gaveUp() { gaveUp.increment(); }
    public void rejected() { rejected.increment(); }
    public void breakerTrip() { breakerTrips.increment(); }
    public void waited(long nanos) {
        if (nanos > 0) {
            waitNanos.add(nanos);
        }
    }

    /** A consistent-enough copy for reporting. */
    public Counts snapshot() {
        return new Counts(calls.sum(), throttled.sum(), transientErrors.sum(), retries.sum(), gaveUp.sum(),
                rejected.sum(), breakerTrips.sum(), waitNanos.sum());
    }
}
