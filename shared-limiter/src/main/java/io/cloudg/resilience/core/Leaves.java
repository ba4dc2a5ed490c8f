package io.cloudg.resilience.core;

import io.cloudg.resilience.config.LeafLimit;

/**
 * The adaptive leaf bucket's rules, as pure functions {@code (state, now, limit) -> state'}.
 *
 * <ul>
 *   <li><b>Take</b>: as {@link TokenBuckets} at the leaf's current rate, holding at most its
 *       {@linkplain #capacity capacity} (the burst less {@link #HEADROOM_SECONDS} of refill).</li>
 *   <li><b>Throttled</b>: the rate halves, never below {@link LeafLimit#floorRps()}, and the stored burst
 *       is drained; throttles less than {@link #SAME_EVENT_NANOS} after the last decrease are the same
 *       event and change nothing but the count. A Retry-After hint pauses the bucket for that long (the
 *       caller caps it at 300 s).</li>
 *   <li><b>Throttled by a fixed window</b> ({@link QuotaWindow}): a window's reset time pauses the bucket
 *       until the reset, as Retry-After does, and throttles that arrive before the reset are the same event
 *       (calls sent before the window ran out). A window whose size the answer said is <em>learned</em>: the
 *       rate becomes the window's quota spread over the window ({@link QuotaWindow#spreadRps()}, at most the
 *       ceiling) and recovery never climbs above it again; a leaf already at or below that rate was
 *       throttled because someone else spends the window too, and halves as above.</li>
 *   <li><b>Success</b>: once {@link #RECOVERY_QUIET_NANOS} have passed since the last throttle, a success
 *       adds {@link #RECOVERY_STEP} of the ceiling back, at most once per {@link #RECOVERY_QUIET_NANOS}, up
 *       to the ceiling or the learned window rate, whichever is lower.</li>
 *   <li>{@code adaptive: false} freezes the rate (throttles are still counted and Retry-After still
 *       pauses).</li>
 *   <li><b>Taken at a share</b>: a process that may spend only part of a shared leaf (others presumed to pace
 *       their part locally) refills and holds that part, for its reservation only; the stored rate is kept.</li>
 * </ul>
 * A leaf whose configured ceiling changed is clamped to it on the next operation.
 */
public final class Leaves {
    public static final long SAME_EVENT_NANOS = Time.SECOND;
    public static final long RECOVERY_QUIET_NANOS = 5 * Time.SECOND;
    public static final double RECOVERY_STEP = 0.05;
    /**
     * A leaf holds at most its burst less this many seconds of refill (its {@linkplain #capacity
     * capacity}). Our bucket grants when a request leaves; the provider's counts it when it arrives. Until
     * our first request arrives, the provider's bucket is full and drops the refill ours credits meanwhile
     * (for a cold process: a connection set-up, the SDK's first marshalling and signing, on a loaded machine
     * a few hundred milliseconds). Were both buckets the same size, ours would then run that far ahead of
     * theirs for as long as both are drained, and requests faster than that first one would earn a throttle
     * that halves the leaf. Half a second of refill absorbs that much; it costs 10 of EC2's 100 tokens,
     * each time a full bucket drains. (Four processes sharing one Redis on a 2-core machine at load 12-42:
     * a quarter second let 15 and 34 throttled answers through, half a second 1 and 1; BENCHMARKS.md.)
     */
    public static final double HEADROOM_SECONDS = 0.5;

    private Leaves() {
    }

    /**
     * The most a leaf holds, and what a new leaf starts with: its burst less {@link #HEADROOM_SECONDS} of
     * refill at its ceiling, at least min(1, burst).
     */
    public static double capacity(LeafLimit limit) {
        return Math.max(Math.min(1.0, limit.burst()), limit.burst() - HEADROOM_SECONDS * limit.ceilingRps());
    }

    /** The state as of {@code now}: created if absent, clamped to the configured ceiling, refilled. */
    static LeafState current(LeafState s, long now, LeafLimit limit) {
        return current(s, now, limit, 0);
    }

    /** {@link #current} with {@code taken} tokens already taken: one allocation on the hot path, not two. */
    private static LeafState current(LeafState s, long now, LeafLimit limit, int taken) {
        return current(s, now, limit, taken, 1.0);
    }

    /** {@link #current} refilling at {@code share} of the stored rate, holding {@code share} of the capacity. */
    private static LeafState current(LeafState s, long now, LeafLimit limit, int taken, double share) {
        double ceiling = limit.ceilingRps();
        if (s == null) {
            return new LeafState(capacity(limit) * share - taken, now, ceiling, ceiling, Time.NEVER, Time.NEVER,
                    Time.NEVER, Time.NEVER, 0, 0);
        }
        double rate = rate(s.rate(), limit);
        double capacity = capacity(limit) * share;
        double tokens = TokenBuckets.refilled(s.tokens(), s.refilledAt(), now, s.rate() * share, capacity);
        long at = Math.max(now, s.refilledAt());
        return new LeafState(Math.min(tokens, capacity) - taken, at, rate, ceiling, s.pausedUntil(),
                s.lastDecreaseAt(), s.lastThrottleAt(), s.lastIncreaseAt(), s.throttles(), s.windowRate());
    }

    /** Takes {@code permits}; the wait includes any pause still running. */
    public static Reservation<LeafState> reserve(LeafState s, long now, LeafLimit limit, int permits) {
        LeafState next = current(s, now, limit, permits);
        return new Reservation<>(next, TokenBuckets.waitFor(next.tokens(), next.refilledAt(), now, next.rate()));
    }

    /**
     * {@link #reserve} by a process that may spend only {@code share} (in (0, 1]) of the leaf: the bucket refills
     * at that share of its stored rate and holds that share of its capacity, for this reservation; the stored
     * rate and ceiling, and so the AIMD state, are the leaf's as ever. A shared leaf is spent at {@code share < 1}
     * while other processes are presumed to pace their part of it locally (the Redis backend's partial loss,
     * {@code io.cloudg.resilience.redis.Presence}); {@code share} 1 is {@link #reserve}, bit for bit.
     */
    public static Reservation<LeafState> reserve(LeafState s, long now, LeafLimit limit, int permits, double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be in (0, 1], but was " + share);
        }
        LeafState next = current(s, now, limit, permits, share);
        return new Reservation<>(next, TokenBuckets.waitFor(next.tokens(), next.refilledAt(), now, next.rate() * share));
    }

    /**
     * A throttled answer. {@code retryAfterNanos} is the provider's hint (already capped), or negative for
     * none.
     */
    public static LeafState onThrottle(LeafState s, long now, LeafLimit limit, long retryAfterNanos) {
        return onThrottle(s, now, limit, retryAfterNanos, QuotaWindow.NONE);
    }

    /**
     * A throttled answer. {@code retryAfterNanos} is the provider's hint (already capped), or negative for
     * none; {@code window} what the answer said about a fixed-window quota ({@link QuotaWindow#NONE}: nothing).
     */
    public static LeafState onThrottle(LeafState s, long now, LeafLimit limit, long retryAfterNanos, QuotaWindow window) {
        LeafState c = current(s, now, limit);
        double tokens = c.tokens();
        long refilledAt = c.refilledAt();
        double rate = c.rate();
        double windowRate = c.windowRate();
        long lastDecrease = c.lastDecreaseAt();
        long pausedUntil = c.pausedUntil();
        boolean sameEvent = Time.since(now, lastDecrease) < SAME_EVENT_NANOS
                || (window.known() && pausedUntil != Time.NEVER && now < pausedUntil);
        if (limit.adaptive()) {
            double target = rate;
            if (window.sized()) {
                windowRate = window.spreadRps();
                target = Math.max(limit.floorRps(), Math.min(windowRate, c.ceiling()));
            }
            if (rate > target || !sameEvent) {
                rate = rate > target ? target : Math.max(limit.floorRps(), rate / 2);
                tokens = Math.min(tokens, 0);
                lastDecrease = now;
            }
        }
        long pause = Math.max(retryAfterNanos, window.resetNanos());
        if (pause > 0) {
            long until = now + pause;
            if (until > refilledAt) {
                refilledAt = until;
                tokens = Math.min(tokens, 0);
            }
            pausedUntil = pausedUntil == Time.NEVER ? until : Math.max(pausedUntil, until);
        }
        return new LeafState(tokens, refilledAt, rate, c.ceiling(), pausedUntil, lastDecrease, now,
                c.lastIncreaseAt(), c.throttles() + 1, windowRate);
    }

    /** A stored rate clamped to the configured ceiling (and floor, when adaptive). */
    static double rate(double stored, LeafLimit limit) {
        return limit.adaptive() ? Math.min(Math.max(stored, limit.floorRps()), limit.ceilingRps()) : limit.ceilingRps();
    }

    /** The highest rate recovery may reach: the ceiling, or the learned window rate if that is lower. */
    private static double recoveryLimit(double ceiling, double windowRate) {
        return windowRate > 0 && windowRate < ceiling ? windowRate : ceiling;
    }

    /**
     * Whether a success now takes a recovery step on a leaf at {@code rate} below {@code ceiling} (and below
     * the window rate it learned).
     */
    private static boolean recovers(double rate, double ceiling, LeafState s, long now, LeafLimit limit) {
        return limit.adaptive() && rate < recoveryLimit(ceiling, s.windowRate())
                && Time.since(now, s.lastThrottleAt()) >= RECOVERY_QUIET_NANOS
                && Time.since(now, s.lastIncreaseAt()) >= RECOVERY_QUIET_NANOS;
    }

    /**
     * A successful answer: maybe one recovery step. Returns {@code s} itself when nothing changes (no step,
     * the rate and ceiling already those of {@code limit}): the refill is credited by the next reservation,
     * so a store writes nothing for the common success.
     */
    public static LeafState onSuccess(LeafState s, long now, LeafLimit limit) {
        if (s != null && s.ceiling() == limit.ceilingRps() && rate(s.rate(), limit) == s.rate()
                && !recovers(s.rate(), s.ceiling(), s, now, limit)) {
            return s;
        }
        LeafState c = current(s, now, limit);
        if (!recovers(c.rate(), c.ceiling(), c, now, limit)) {
            return c;
        }
        double rate = Math.min(recoveryLimit(c.ceiling(), c.windowRate()), c.rate() + RECOVERY_STEP * c.ceiling());
        return new LeafState(c.tokens(), c.refilledAt(), rate, c.ceiling(), c.pausedUntil(), c.lastDecreaseAt(),
                c.lastThrottleAt(), now, c.throttles(), c.windowRate());
    }
}
