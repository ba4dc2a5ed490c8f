package io.cloudg.resilience.core;

/**
 * An adaptive leaf bucket: a token bucket whose rate moves by AIMD between the provider's floor and the
 * configured ceiling.
 *
 * @param tokens the balance (negative while reservations are outstanding)
 * @param refilledAt the time up to which refill has been credited (in the future while paused)
 * @param rate the current rate, tokens per second
 * @param ceiling the configured rate the last time this leaf was used
 * @param pausedUntil the end of the latest pause (a Retry-After hint, a quota window's reset), or {@link Time#NEVER}
 * @param lastDecreaseAt when the rate was last halved, or NEVER
 * @param lastThrottleAt when the provider last throttled a call of this leaf, or NEVER
 * @param lastIncreaseAt when the rate last recovered a step, or NEVER
 * @param throttles how many throttled answers this leaf has seen
 * @param windowRate the rate a fixed-window quota allows, learned from a throttle that said the window's size
 *        ({@link QuotaWindow#spreadRps()}): recovery never climbs above it; 0 when none was learned
 */
public record LeafState(double tokens, long refilledAt, double rate, double ceiling, long pausedUntil,
                        long lastDecreaseAt, long lastThrottleAt, long lastIncreaseAt, long throttles,
                        double windowRate) {

    /** A leaf that learned no quota window. */
    public LeafState(double tokens, long refilledAt, double rate, double ceiling, long pausedUntil, long lastDecreaseAt,
                     long lastThrottleAt, long lastIncreaseAt, long throttles) {
        this(tokens, refilledAt, rate, ceiling, pausedUntil, lastDecreaseAt, lastThrottleAt, lastIncreaseAt, throttles, 0);
    }

    /**
     * A new leaf: at its ceiling, holding its {@linkplain Leaves#capacity capacity}: the burst less
     * {@link Leaves#HEADROOM_SECONDS} of refill (see there why), never less than one token (or the burst,
     * if that is smaller).
     */
    public static LeafState fresh(double ceiling, double burst, long now) {
        double tokens = Leaves.capacity(new io.cloudg.resilience.config.LeafLimit(ceiling, burst, ceiling, true));
        return new LeafState(tokens, now, ceiling, ceiling, Time.NEVER, Time.NEVER, Time.NEVER, Time.NEVER, 0);
    }

    /** Slower than its ceiling. */
    public boolean slowed() {
        return rate < ceiling;
    }

    LeafState with(double tokens, long refilledAt, double rate) {
        return new LeafState(tokens, refilledAt, rate, ceiling, pausedUntil, lastDecreaseAt, lastThrottleAt,
                lastIncreaseAt, throttles, windowRate);
    }
}
