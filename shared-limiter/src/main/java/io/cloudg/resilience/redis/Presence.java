package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.RedisSettings;
import java.util.concurrent.TimeUnit;

/**
 * Who shares the quotas, as the estate's set of processes ({@link RedisKeys#processes()}) shows it, and what
 * that leaves a healthy process to spend: pure functions of {@code (last seen, now, policy)}, which cloudg.lua's
 * {@code member} applies on Redis time and {@link Members} on its reply.
 *
 * <ul>
 *   <li><b>Live</b>: heard from within {@link Policy#lapseNanos()} (a few heartbeats: a loaded process may be
 *       late). It spends through Redis.</li>
 *   <li><b>Missing</b>: silent for longer than that, but for less than {@link Policy#forgetNanos()}. It is
 *       presumed degraded (it lost Redis and paces each leaf locally at {@code limit / fleet}, see
 *       {@link Outages}), so the healthy processes leave its share unspent. A process that ends cleanly leaves
 *       the set and is never missing.</li>
 *   <li><b>Gone</b>: silent for {@link Policy#forgetNanos()} or longer; dropped. A crashed process so costs the
 *       fleet its share for a bounded time, not forever; a process degraded for longer than that is again on
 *       top of the fleet's quota (the case this rule cannot cover).</li>
 * </ul>
 *
 * <p>The fleet is the live and missing processes. A degraded process divides every limit by the larger of
 * {@code fleet_size_hint} and the fleet it last saw; a healthy one refills the shared buckets at
 * {@link #refillShare} of their rates (and holds that share of their bursts and bulkheads), so that the fleet
 * as a whole, the degraded processes' local pacing included, stays within each quota.
 */
final class Presence {
    private Presence() {
    }

    /**
     * @param lapseNanos how long a process counts as live after it last said so
     * @param forgetNanos how long a silent process counts as missing (presumed degraded) before it counts as gone
     */
    record Policy(long lapseNanos, long forgetNanos) {
        /** How long a silent process counts as live (four heartbeats of {@link Members#BEAT_NANOS}). */
        static final long DEFAULT_LAPSE_NANOS = TimeUnit.SECONDS.toNanos(RedisSettings.HEARTBEAT_LAPSE_SECONDS);
        /**
         * How long a silent process is presumed degraded, by default ({@code presumed_degraded_seconds}): longer
         * than most partial losses of Redis (a network partition healed, a failover done), short enough that a
         * process killed without leaving costs the others its share for minutes, not for the run.
         */
        static final long DEFAULT_FORGET_NANOS = TimeUnit.MINUTES.toNanos(5);
        static final Policy DEFAULT = new Policy(DEFAULT_LAPSE_NANOS, DEFAULT_FORGET_NANOS);

        Policy {
            if (lapseNanos <= 0 || forgetNanos < lapseNanos) {
                throw new IllegalArgumentException("the lapse must be > 0 and the time to forget a silent process at"
                        + " least the lapse, but were " + lapseNanos + " ns and " + forgetNanos + " ns");
            }
        }

        long lapseMillis() {
            return TimeUnit.NANOSECONDS.toMillis(lapseNanos);
        }

        long forgetMillis() {
            return TimeUnit.NANOSECONDS.toMillis(forgetNanos);
        }
    }

    /** Where a process stands in the set. */
    enum Standing {
        LIVE, MISSING, GONE
    }

    /** A process last heard from at {@code lastSeen}, at {@code now} (Redis time). */
    static Standing standing(long lastSeen, long now, Policy p) {
        long silent = now - lastSeen;
        if (silent <= p.lapseNanos()) {
            return Standing.LIVE;
        }
        return silent < p.forgetNanos() ? Standing.MISSING : Standing.GONE;
    }

    /**
     * The processes of the set as counted at one instant.
     *
     * @param live those heard from within the lapse (a process that just said so among them)
     * @param missing those presumed degraded
     */
    record Count(int live, int missing) {
        static final Count NONE = new Count(0, 0);

        Count {
            if (live < 0 || missing < 0) {
                throw new IllegalArgumentException("counts must be >= 0, but were " + live + " and " + missing);
            }
        }

        /** The processes that share the quotas: the live and the missing ones. */
        int fleet() {
            return live + missing;
        }
    }

    /** {@code lastSeen} (Redis times) counted at {@code now}: what {@code member} answers. */
    static Count count(long[] lastSeen, long now, Policy p) {
        int live = 0;
        int missing = 0;
        for (long t : lastSeen) {
            switch (standing(t, now, p)) {
                case LIVE -> live++;
                case MISSING -> missing++;
                case GONE -> { }
            }
        }
        return new Count(live, missing);
    }

    /**
     * The part of every shared rate, burst and bulkhead a healthy process may spend: 1 with no process missing,
     * else what the missing ones leave, each of them presumed to pace at {@code 1 / max(hint, fleet)}. Never
     * below {@code 1 / max(hint, fleet)}: this process is live.
     */
    static double refillShare(int fleetSizeHint, Count c) {
        if (c.missing() == 0) {
            return 1.0;
        }
        int divisor = Math.max(Math.max(1, fleetSizeHint), Math.max(c.fleet(), c.missing() + 1));
        return (double) (divisor - c.missing()) / divisor;
    }
}
