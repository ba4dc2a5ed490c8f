package io.cloudg.sim.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that only moves when told to: for tests of buckets, windows and fault schedules. */
public final class ManualClock implements SimClock {
    private final Instant origin;
    private final AtomicLong nanos = new AtomicLong();

    public ManualClock() {
        this(Instant.parse("2025-01-01T00:00:00Z"));
    }

    public ManualClock(Instant origin) {
        this.origin = origin;
    }

    public void advance(Duration d) {
        advanceNanos(d.toNanos());
    }

    public void advanceNanos(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("time only moves forward: " + n);
        }
        nanos.addAndGet(n);
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public Instant now() {
        return origin.plusNanos(nanos.get());
    }
}
