package io.cloudg.fleet.protocol;

import io.cloudg.resilience.report.Counts;

/** A scope's throttling counters on the wire, waiting time in nanoseconds (nothing is rounded away). */
public record WireCounts(long calls, long throttled, long transientErrors, long retries, long gaveUp, long rejected,
                         long breakerTrips, long waitNanos) {
    public WireCounts {
        for (long n : new long[] {calls, throttled, transientErrors, retries, gaveUp, rejected, breakerTrips, waitNanos}) {
            if (n < 0) {
                throw Wire.invalid("throttling counter", "at least 0", n);
            }
        }
    }

    public static WireCounts of(Counts c) {
        return new WireCounts(c.calls(), c.throttled(), c.transientErrors(), c.retries(), c.gaveUp(), c.rejected(),
                c.breakerTrips(), c.waitNanos());
    }

    public Counts toCounts() {
        return new Counts(calls, throttled, transientErrors, retries, gaveUp, rejected, breakerTrips, waitNanos);
    }
}
