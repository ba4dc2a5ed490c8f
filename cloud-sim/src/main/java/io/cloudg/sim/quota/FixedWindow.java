package io.cloudg.sim.quota;

/**
 * A fixed-window quota as pure functions: at most {@code calls} per window, all of them back when the window
 * ends. A neighbour uses {@code share} of every window's calls from its start and, in windows the seeded
 * schedule picks (on average one every {@code burstEvery}), also {@code burstSize} of them at a random
 * moment inside the window.
 */
public final class FixedWindow {

    private FixedWindow() {
    }

    /**
     * @param limit     calls per window, window length, alignment
     * @param neighbour the neighbour's share and bursts
     * @param seed      seed of the neighbour's burst schedule
     * @param enforcing false to count calls without ever refusing one
     */
    public record Config(WindowLimit limit, Neighbour neighbour, long seed, boolean enforcing) {
        public Config {
            if (limit == null || neighbour == null) {
                throw new IllegalArgumentException("limit and neighbour are required");
            }
        }
    }

    /**
     * @param windowStart    start of the current window ({@link Long#MIN_VALUE}: none opened yet)
     * @param windowIndex    number of the current window (counted, or the clock's multiple for aligned windows)
     * @param used           calls admitted in the current window
     * @param neighbourUsed  calls the neighbour used in the current window
     * @param burstAt        when the neighbour bursts in this window ({@link Long#MAX_VALUE}: not in this one)
     * @param neighbourTotal calls the neighbour used over all windows
     */
    public record State(long windowStart, long windowIndex, int used, int neighbourUsed, long burstAt,
                        long neighbourTotal) {
    }

    /** No window opened yet. */
    public static State initial() {
        return new State(Long.MIN_VALUE, -1, 0, 0, Long.MAX_VALUE, 0);
    }

    /** One call at {@code now}. */
    public static Step<State> take(State s, long now, Config c) {
        State a = advance(s, now, c);
        long reset = a.windowStart() + c.limit().windowNanos() - now;
        int left = c.limit().calls() - a.used() - a.neighbourUsed();
        if (c.enforcing() && left < 1) {
            return new Step<>(a, new Admission(false, 0, reset, reset));
        }
        State taken = new State(a.windowStart(), a.windowIndex(), a.used() + 1, a.neighbourUsed(), a.burstAt(),
            a.neighbourTotal());
        return new Step<>(taken, new Admission(true, Math.max(0, left - 1), 0, reset));
    }

    /** The state at {@code now}: a new window if the last one ended, the neighbour's burst if it is due. */
    public static State advance(State s, long now, Config c) {
        long len = c.limit().windowNanos();
        State w = s;
        boolean open = s.windowStart() != Long.MIN_VALUE && now < s.windowStart() + len
            && (c.limit().alignment() == WindowLimit.Alignment.FIRST_CALL || now >= s.windowStart());
        if (!open) {
            long start;
            long index;
            if (c.limit().alignment() == WindowLimit.Alignment.CLOCK) {
                index = Math.floorDiv(now, len);
                start = index * len;
            } else {
                start = now;
                index = s.windowIndex() + 1;
            }
            int steady = (int) Math.floor(c.neighbour().share() * c.limit().calls());
            long burstAt = Long.MAX_VALUE;
            if (c.neighbour().bursts()) {
                double chance = 1 - Math.exp(-(double) len / c.neighbour().burstEveryNanos());
                if (Draws.uniform(c.seed(), 2 * index) < chance) {
                    burstAt = start + (long) (Draws.uniform(c.seed(), 2 * index + 1) * len);
                }
            }
            w = new State(start, index, 0, steady, burstAt, s.neighbourTotal() + steady);
        }
        if (w.burstAt() <= now) {
            int room = c.limit().calls() - w.used() - w.neighbourUsed();
            int spend = Math.max(0, Math.min(room, (int) Math.round(c.neighbour().burstSize() * c.limit().calls())));
            w = new State(w.windowStart(), w.windowIndex(), w.used(), w.neighbourUsed() + spend, Long.MAX_VALUE,
                w.neighbourTotal() + spend);
        }
        return w;
    }
}
