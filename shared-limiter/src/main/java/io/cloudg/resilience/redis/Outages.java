package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Leaves;
import io.cloudg.resilience.core.TokenBuckets;

/**
 * When a shared store counts as lost, when it is tried again, and what a process owes on either side of an
 * episode: pure functions of {@code (state, now, policy)}, which {@link DegradingStateStore} applies under its
 * lock on the governor's clock.
 *
 * <ul>
 *   <li><b>Lost</b>: only a sustained failure degrades. Every failed call extends a streak that any answered
 *       call ends; the store counts as lost once the streak holds at least {@link Policy#failures()} failures
 *       <em>and</em> has lasted {@link Policy#lostAfterNanos()}. A stall that fails every call in flight at one
 *       moment is one instant, not a lasting outage; a server that answers some calls slowly is not lost.</li>
 *   <li><b>Back</b>: while degraded, one probe at most every {@link Policy#probeIntervalNanos()}; one that
 *       answers ends the episode.</li>
 *   <li><b>The share</b>: a degraded process paces at {@code 1/share} of every limit, the share fixed when the
 *       episode starts: the larger of {@code fleet_size_hint} and the processes last seen in the shared store,
 *       live or presumed degraded ({@link Presence}).</li>
 *   <li><b>No burst either way</b>: a leaf's first local admission of an episode first takes what its local
 *       bucket holds ({@link #entryDrain}: the fleet's bucket is assumed drained, since the process cannot
 *       see it), and its first shared admission after the episode also takes what this process spent locally
 *       and the local bucket has not refilled yet ({@link #returnDebt}), so the shared bucket, which kept
 *       refilling while this process was away, does not hand the same tokens out twice.</li>
 * </ul>
 */
final class Outages {
    private Outages() {
    }

    /**
     * @param failures the fewest failed calls in a row that count as an outage (at least 1)
     * @param lostAfterNanos how long they must have lasted, first to latest (0: at once)
     * @param probeIntervalNanos while degraded, the least time between two probes (positive)
     */
    record Policy(int failures, long lostAfterNanos, long probeIntervalNanos) {
        /** Failures in a row before a store counts as lost, by default. */
        static final int DEFAULT_FAILURES = 3;

        Policy {
            if (failures < 1 || lostAfterNanos < 0 || probeIntervalNanos <= 0) {
                throw new IllegalArgumentException("failures must be >= 1, the time to count as lost >= 0 and the"
                        + " probe interval > 0, but were " + failures + ", " + lostAfterNanos + " ns and "
                        + probeIntervalNanos + " ns");
            }
        }

        /** The first failure degrades (what a store without the setting did). */
        static Policy immediate(long probeIntervalNanos) {
            return new Policy(1, 0, probeIntervalNanos);
        }
    }

    /**
     * @param failures failed calls since the last answered one (0 while degraded: the streak ended in the episode)
     * @param streakSince when the first of them failed
     * @param degraded whether calls are paced locally
     * @param since when the episode began (meaningful while degraded)
     * @param lastProbe when the shared store was last probed (meaningful while degraded)
     * @param share the episode's divisor of every limit (meaningful while degraded)
     */
    record State(int failures, long streakSince, boolean degraded, long since, long lastProbe, int share) {
        static final State HEALTHY = new State(0, 0, false, 0, 0, 1);
    }

    /** A call the shared store failed to answer, at {@code now}; {@code share} is the divisor should it degrade. */
    static State failed(State s, long now, Policy p, int share) {
        if (s.degraded()) {
            return s;
        }
        int failures = s.failures() + 1;
        long streakSince = s.failures() == 0 ? now : s.streakSince();
        if (failures >= p.failures() && now - streakSince >= p.lostAfterNanos()) {
            return new State(0, 0, true, now, now, share);
        }
        return new State(failures, streakSince, false, 0, 0, s.share());
    }

    /** A call the shared store answered: the streak ends (an episode ends only by a probe). */
    static State answered(State s) {
        return s.degraded() || s.failures() == 0 ? s : State.HEALTHY;
    }

    /** Whether a probe is due at {@code now}. */
    static boolean probeDue(State s, long now, Policy p) {
        return s.degraded() && now - s.lastProbe() >= p.probeIntervalNanos();
    }

    /** A probe made at {@code now}: the store answered it, or not. */
    static State probed(State s, long now, boolean answered) {
        if (!s.degraded()) {
            return s;
        }
        return answered ? State.HEALTHY : new State(0, 0, true, s.since(), now, s.share());
    }

    /** The divisor of an episode: the larger of the configured hint and the fleet last seen (live and missing processes). */
    static int share(int fleetSizeHint, int liveSeen) {
        return Math.max(Math.max(1, fleetSizeHint), liveSeen);
    }

    /** {@code limit} as one of {@code share} processes sees it: rate and burst divided. */
    static LeafLimit share(LeafLimit l, int share) {
        return new LeafLimit(l.ceilingRps() / share, Math.max(1, l.burst() / share), l.minRps(), l.adaptive());
    }

    /**
     * The whole tokens a leaf's local bucket ({@code local}, null if it has none yet) holds at {@code now} under
     * the local limit {@code shared}: what the first local admission of an episode takes besides its own.
     */
    static int entryDrain(LeafState local, long now, LeafLimit shared) {
        return (int) Math.floor(Math.max(0, localTokens(local, now, shared)));
    }

    /**
     * The whole tokens this process spent locally on a leaf that its local bucket ({@code local}, null if the
     * leaf was not used locally) has not refilled by {@code now}: what its first shared admission after an
     * episode takes besides its own.
     */
    static int returnDebt(LeafState local, long now, LeafLimit shared) {
        if (local == null) {
            return 0;
        }
        return (int) Math.floor(Math.max(0, Leaves.capacity(shared) - localTokens(local, now, shared)));
    }

    private static double localTokens(LeafState s, long now, LeafLimit shared) {
        double capacity = Leaves.capacity(shared);
        if (s == null) {
            return capacity;
        }
        return Math.min(capacity, TokenBuckets.refilled(s.tokens(), s.refilledAt(), now, s.rate(), capacity));
    }
}
