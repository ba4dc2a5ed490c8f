package io.cloudg.sim.core;

import java.time.Instant;

/**
 * The simulator's only source of time. Monotonic nanoseconds drive buckets and windows; wall time stamps
 * responses (creation dates, token expiry).
 */
public interface SimClock {

    /** Monotonic time in nanoseconds; only differences are meaningful. */
    long nanoTime();

    /** Wall-clock time. */
    Instant now();

    /** The real clock. */
    static SimClock system() {
        return SystemClock.INSTANCE;
    }

    /** The real clock. */
    final class SystemClock implements SimClock {
        static final SystemClock INSTANCE = new SystemClock();

        private SystemClock() {
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public Instant now() {
            return Instant.now();
        }
    }
}
