package io.cloudg.resilience.core;

/**
 * One leaf's circuit breaker.
 *
 * @param phase CLOSED, OPEN or HALF_OPEN
 * @param failures consecutive failed calls while closed
 * @param openedAt when it last opened (meaningful while OPEN)
 * @param cooldownNanos the current open time: the base, doubled by each failed probe up to the cap
 * @param probeUntil while HALF_OPEN, when the running probe's lease expires
 * @param probeGeneration increments with every probe granted, so an expired probe's late answer is ignored
 * @param trips how many times it has opened
 */
public record BreakerState(Phase phase, int failures, long openedAt, long cooldownNanos, long probeUntil,
                           long probeGeneration, long trips) {

    public enum Phase { CLOSED, OPEN, HALF_OPEN }

    public static BreakerState closed(BreakerLimit limit) {
        return new BreakerState(Phase.CLOSED, 0, Time.NEVER, limit.cooldownNanos(), Time.NEVER, 0, 0);
    }

    /** Nanoseconds until a call may go through (a new probe), 0 if it may now. */
    public long retryInNanos(long now) {
        switch (phase) {
            case OPEN: return Math.max(0, openedAt + cooldownNanos - now);
            case HALF_OPEN: return Math.max(0, probeUntil - now);
            default: return 0;
        }
    }
}
