package io.cloudg.fleet.worker;

/**
 * How many collector jobs a worker runs at once when {@code fleet.worker.threads} is not set: a window that
 * follows the CPU. Its signal is the scheduling lag of the worker's virtual threads: how late a thread that
 * asked to wake after a short sleep actually runs. That lag is what a governed call pays for each of its steps
 * when the worker's jobs (and the host's other processes) keep the cores busy; when jobs wait on the network or
 * on the governor, the cores idle and the lag is near zero, however many jobs there are.
 *
 * <p>A pure function of the state, a lag sample and the time ({@link #next}), decided once a
 * {@link Config#period}: from the mean lag of the period's samples, and whether any of the worker's jobs was
 * using a core (its thread runnable) at one of them,
 * <ul>
 *   <li>at or above {@link Config#busyLagNanos} with a job of ours runnable, the cores are saturated and we are
 *       part of it: the window halves, from the jobs actually running if fewer, down to {@link Config#min} (jobs
 *       already running go on; jobs waiting for a place wait longer, the costliest first);</li>
 *   <li>at or below {@link Config#idleLagNanos}, or with no job of ours runnable at any sample (every one parked on
 *       the network or the governor: the lag is other processes', and a job more costs a core nothing until its
 *       answer comes), the window doubles, up to {@link Config#max}, but only if it held a job back during the
 *       period (a window nobody fills does not grow: the start of a map, idle until then, must not open it
 *       before its CPU burst shows);</li>
 *   <li>in between, a window that held a job back grows by one; otherwise it stays.</li>
 * </ul>
 * So a worker whose jobs wait on slow calls opens to as many jobs as it has within a few periods, and a worker
 * whose jobs saturate the cores at the start of a map (clients built, first pages parsed, on few cores
 * shared with other workers) runs few of them, the costliest first, so that a quota-bound fan-out's calls are
 * not held up behind the burst and its bucket's refill is not lost.
 */
final class JobWindow {
    private JobWindow() {
    }

    /**
     * @param initial the window before any decision
     * @param min the smallest window
     * @param max the largest window (the job places)
     * @param period how long samples are gathered before a decision, in nanoseconds
     * @param idleLagNanos a mean lag at or below which the cores are taken as idle
     * @param busyLagNanos a mean lag at or above which the cores are taken as saturated
     * @param probeNanos how long the probe sleeps between samples
     */
    record Config(int initial, int min, int max, long period, long idleLagNanos, long busyLagNanos, long probeNanos) {
        Config {
            if (min < 1 || max < min || initial < min || initial > max) {
                throw new IllegalArgumentException("a job window needs 1 <= min <= initial <= max, but was " + min
                        + " <= " + initial + " <= " + max);
            }
            if (period <= 0 || probeNanos <= 0 || idleLagNanos < 0 || busyLagNanos <= idleLagNanos) {
                throw new IllegalArgumentException("a job window needs a positive period and probe, and "
                        + "0 <= idle lag < busy lag");
            }
        }

        /**
         * The defaults for {@code cores} cores and {@code max} job places: 4 jobs a core at first and at least
         * (fewer would leave the cheap listings latency-bound while other processes keep the cores busy: a
         * window of 4 on 2 cores made them the tail of the quota-bound fleet benchmark); decided every 100 ms from
         * a sample every 10 ms; idle at a mean lag of 2 ms or less, saturated at 15 ms or more (a call's
         * continuation waiting that long for a core, several times a call, slows a 60 ms call by half).
         */
        static Config defaults(int cores, int max) {
            int initial = Math.min(max, 4 * Math.max(1, cores));
            return new Config(initial, initial, max, 100_000_000L, 2_000_000L, 15_000_000L, 10_000_000L);
        }
    }

    /**
     * @param window the jobs that may run at once
     * @param periodStart when the period under way began
     * @param lagSum the lag of this period's samples, summed
     * @param samples this period's samples
     * @param heldBack whether a job waited for a place at one of this period's samples
     * @param busy whether a job of ours was runnable (on a core, or ready for one) at one of this period's samples
     */
    record State(int window, long periodStart, long lagSum, int samples, boolean heldBack, boolean busy) {
        static State start(Config c, long now) {
            return new State(c.initial(), now, 0, 0, false, false);
        }
    }

    /**
     * The state after a sample taken at {@code now}: {@code lagNanos} late, with {@code running} jobs running (of
     * which {@code runnable} on a core or ready for one, the others parked) and {@code waiting} jobs waiting for a
     * place. The window changes only when the sample ends a period.
     */
    static State next(State s, long lagNanos, long now, int running, int runnable, int waiting, Config c) {
        long lagSum = s.lagSum() + Math.max(0, lagNanos);
        int samples = s.samples() + 1;
        boolean heldBack = s.heldBack() || waiting > 0;
        boolean busy = s.busy() || runnable > 0;
        if (now - s.periodStart() < c.period()) {
            return new State(s.window(), s.periodStart(), lagSum, samples, heldBack, busy);
        }
        long mean = lagSum / samples;
        int w = s.window();
        if (mean >= c.busyLagNanos() && busy) {
            w = Math.max(c.min(), Math.min(w, Math.max(running, 1)) / 2);
        } else if (heldBack) {
            long grown = mean <= c.idleLagNanos() || !busy ? 2L * w : w + 1L;
            w = (int) Math.min(c.max(), grown);
        }
        return new State(w, now, 0, 0, false, false);
    }
}
