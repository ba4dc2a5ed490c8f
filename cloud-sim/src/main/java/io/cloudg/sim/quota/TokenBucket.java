package io.cloudg.sim.quota;

/**
 * A token bucket as pure functions: {@link #take(State, long, Config)} maps a state, the time and the
 * configuration to the next state and a decision, and never reads a clock or mutates anything.
 *
 * <p>The bucket holds {@code burst} tokens and regains {@code rate x (1 - share)} per second (continuously,
 * or once per second for {@link Refill#WHOLE_SECOND}), the neighbour's {@code share} going to the
 * neighbour. A neighbour that bursts also spends {@code burstSize x burst} tokens (as many as are there)
 * at seeded random moments. A call costs one token; without one it is refused.
 */
public final class TokenBucket {
    private static final long SECOND = 1_000_000_000L;

    private TokenBucket() {
    }

    /**
     * @param limit     rate, burst and refill
     * @param neighbour the neighbour's steady share and bursts
     * @param seed      seed of the neighbour's burst schedule
     * @param enforcing false to count calls without ever refusing one
     */
    public record Config(Limit limit, Neighbour neighbour, long seed, boolean enforcing) {
        public Config {
            if (limit == null || neighbour == null) {
                throw new IllegalArgumentException("limit and neighbour are required");
            }
        }

        double ownRatePerNano() {
            return limit.rate() * (1 - neighbour.share()) / SECOND;
        }
    }

    /**
     * @param tokens          tokens in the bucket at {@code lastNanos}
     * @param lastNanos       when the state was last brought up to date
     * @param originNanos     when the bucket was created (whole-second refills count seconds from here)
     * @param neighbourTokens tokens the neighbour has taken so far (steady share and bursts)
     * @param bursts          bursts the neighbour has made
     * @param nextBurstNanos  when its next burst happens ({@link Long#MAX_VALUE}: never)
     */
    public record State(double tokens, long lastNanos, long originNanos, double neighbourTokens, long bursts,
                        long nextBurstNanos) {
    }

    /** A full bucket created at {@code now}. */
    public static State initial(Config c, long now) {
        long next = c.neighbour().bursts() ? c.neighbour().burstAfter(c.seed(), 0, now) : Long.MAX_VALUE;
        return new State(c.limit().burst(), now, now, 0, 0, next);
    }

    /** One call at {@code now}. */
    public static Step<State> take(State s, long now, Config c) {
        State a = advance(s, now, c);
        if (c.enforcing() && a.tokens() < 1.0) {
            return new Step<>(a, new Admission(false, 0, Math.max(1, untilTokens(a, now, c, 1.0)), fullAfter(a, now, c)));
        }
        State taken = new State(Math.max(0, a.tokens() - 1.0), a.lastNanos(), a.originNanos(), a.neighbourTokens(),
            a.bursts(), a.nextBurstNanos());
        return new Step<>(taken, new Admission(true, (long) Math.floor(taken.tokens()), 0, fullAfter(taken, now, c)));
    }

    /** The state brought up to {@code now}: refills and the neighbour's bursts in between. */
    public static State advance(State s, long now, Config c) {
        if (now <= s.lastNanos()) {
            return s;
        }
        double tokens = s.tokens();
        double theirs = s.neighbourTokens();
        long t = s.lastNanos();
        long bursts = s.bursts();
        long next = s.nextBurstNanos();
        while (next <= now) {
            double[] r = refill(tokens, theirs, t, next, s.originNanos(), c);
            double spend = Math.min(r[0], c.neighbour().burstSize() * c.limit().burst());
            tokens = r[0] - spend;
            theirs = r[1] + spend;
            t = next;
            bursts++;
            next = c.neighbour().burstAfter(c.seed(), bursts, next);
        }
        double[] r = refill(tokens, theirs, t, now, s.originNanos(), c);
        return new State(r[0], now, s.originNanos(), r[1], bursts, next);
    }

    /** Tokens (mine, the neighbour's) after refilling from {@code from} to {@code to}. */
    private static double[] refill(double tokens, double theirs, long from, long to, long origin, Config c) {
        double share = c.neighbour().share();
        double added;
        if (c.limit().refill() == Refill.WHOLE_SECOND) {
            long steps = Math.floorDiv(to - origin, SECOND) - Math.floorDiv(from - origin, SECOND);
            added = steps * c.limit().rate();
        } else {
            added = (to - from) * (c.limit().rate() / SECOND);
        }
        return new double[] {Math.min(c.limit().burst(), tokens + added * (1 - share)), theirs + added * share};
    }

    /** Time from {@code now} until the bucket holds {@code want} tokens, ignoring future bursts. */
    private static long untilTokens(State s, long now, Config c, double want) {
        double missing = want - s.tokens();
        if (missing <= 0) {
            return 0;
        }
        if (c.limit().refill() == Refill.WHOLE_SECOND) {
            long steps = (long) Math.ceil(missing / (c.limit().rate() * (1 - c.neighbour().share())));
            long boundary = s.originNanos() + (Math.floorDiv(now - s.originNanos(), SECOND) + steps) * SECOND;
            return boundary - now;
        }
        return (long) Math.ceil(missing / c.ownRatePerNano());
    }

    private static long fullAfter(State s, long now, Config c) {
        return untilTokens(s, now, c, c.limit().burst());
    }
}
