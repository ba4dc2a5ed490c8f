package io.cloudg.fleet.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JobWindowTest {
    private static final long MS = 1_000_000L;
    /** initial 8, min 4, max 4096; decided every 100 ms; idle at 2 ms of lag or less, saturated at 15 ms or more */
    private static final JobWindow.Config C = new JobWindow.Config(8, 4, 4096, 100 * MS, 2 * MS, 15 * MS, 10 * MS);

    /**
     * One period of samples every 10 ms, each {@code lag} late, with {@code running} jobs (every one runnable: using
     * the cores) and {@code waiting} jobs.
     */
    private static JobWindow.State period(JobWindow.State s, long lag, int running, int waiting) {
        return period(s, lag, running, running, waiting);
    }

    /** The same with {@code runnable} of the running jobs runnable, the others parked. */
    private static JobWindow.State period(JobWindow.State s, long lag, int running, int runnable, int waiting) {
        long t = s.periodStart();
        for (int i = 0; i < 10; i++) {
            t += 10 * MS;
            s = JobWindow.next(s, lag, t, running, runnable, waiting, C);
        }
        return s;
    }

    @Test
    void theDefaultsFollowTheCores() {
        assertThat(JobWindow.Config.defaults(2, 4096)).as("4 jobs a core at first and at least")
                .extracting(JobWindow.Config::initial, JobWindow.Config::min, JobWindow.Config::max)
                .containsExactly(8, 8, 4096);
        assertThat(JobWindow.Config.defaults(2, 4096)).isEqualTo(new JobWindow.Config(8, 8, 4096, 100 * MS, 2 * MS,
                15 * MS, 10 * MS));
        assertThat(JobWindow.Config.defaults(16, 8)).as("never above the places")
                .extracting(JobWindow.Config::initial, JobWindow.Config::min).containsExactly(8, 8);
    }

    @Test
    void onIdleCoresAWindowThatHoldsJobsBackDoublesEachPeriodUpToTheMax() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        int[] seen = new int[12];
        for (int i = 0; i < seen.length; i++) {
            s = period(s, MS / 2, s.window(), 5000);
            seen[i] = s.window();
        }
        assertThat(seen).containsExactly(16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 4096, 4096, 4096);
    }

    @Test
    void aWindowNobodyFillsDoesNotGrow() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        for (int i = 0; i < 5; i++) {
            s = period(s, 0, 3, 0);
        }
        assertThat(s.window()).isEqualTo(8);
    }

    @Test
    void oneSampleThatHeldAJobBackIsEnoughToGrow() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        s = JobWindow.next(s, 0, 10 * MS, 8, 8, 1, C);
        for (int i = 2; i <= 10; i++) {
            s = JobWindow.next(s, 0, i * 10 * MS, 8, 8, 0, C);
        }
        assertThat(s.window()).isEqualTo(16);
    }

    @Test
    void theWindowChangesOnlyAtTheEndOfAPeriod() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        for (int i = 1; i < 10; i++) {
            s = JobWindow.next(s, 50 * MS, i * 10 * MS, 8, 8, 10, C);
            assertThat(s.window()).isEqualTo(8);
        }
        s = JobWindow.next(s, 50 * MS, 100 * MS, 8, 8, 10, C);
        assertThat(s.window()).isEqualTo(4);
        assertThat(s.samples()).as("a new period").isZero();
        assertThat(s.periodStart()).isEqualTo(100 * MS);
    }

    @Test
    void onSaturatedCoresTheWindowHalvesFromTheJobsRunningDownToTheMin() {
        JobWindow.State s = new JobWindow.State(4096, 0, 0, 0, false, false);
        s = period(s, 20 * MS, 40, 100);
        assertThat(s.window()).as("half the 40 running, not half the window").isEqualTo(20);
        s = period(s, 20 * MS, 20, 100);
        assertThat(s.window()).isEqualTo(10);
        s = period(s, 20 * MS, 10, 100);
        s = period(s, 20 * MS, 5, 100);
        assertThat(s.window()).isEqualTo(4);
        s = period(s, 20 * MS, 0, 0);
        assertThat(s.window()).as("never below the min").isEqualTo(4);
    }

    /**
     * A lag with none of our jobs runnable at any sample is other processes': every job of ours is parked on the
     * network or the governor, so a job more costs a core nothing until its answer comes. The window doubles; one
     * runnable job at one sample makes the lag ours again.
     */
    @Test
    void aLagWhileEveryJobOfOursIsParkedIsOtherProcessesAndTheWindowStillGrows() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        s = period(s, 40 * MS, 8, 0, 10);
        assertThat(s.window()).as("saturated by others, ours all parked").isEqualTo(16);
        s = period(s, 8 * MS, 16, 0, 10);
        assertThat(s.window()).as("a middling lag, ours all parked").isEqualTo(32);
        s = period(s, 40 * MS, 32, 0, 0);
        assertThat(s.window()).as("nothing held back").isEqualTo(32);
        long t = s.periodStart();
        for (int i = 0; i < 10; i++) {
            t += 10 * MS;
            s = JobWindow.next(s, 40 * MS, t, 32, i == 3 ? 1 : 0, 10, C);
        }
        assertThat(s.window()).as("one of ours runnable at one sample: the lag is ours too").isEqualTo(16);
    }

    @Test
    void betweenIdleAndSaturatedAWindowThatHoldsJobsBackGrowsByOne() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        s = period(s, 8 * MS, 8, 3);
        assertThat(s.window()).isEqualTo(9);
        s = period(s, 8 * MS, 9, 0);
        assertThat(s.window()).as("nothing held back").isEqualTo(9);
    }

    @Test
    void theMeanLagOfAPeriodDecidesSoOnePauseDoesNotCloseTheWindow() {
        JobWindow.State s = JobWindow.State.start(C, 0);
        s = JobWindow.next(s, 60 * MS, 10 * MS, 8, 8, 4, C); // one GC pause
        for (int i = 2; i <= 10; i++) {
            s = JobWindow.next(s, 0, i * 10 * MS, 8, 8, 4, C);
        }
        assertThat(s.window()).as("a mean of 6 ms: between idle and saturated").isEqualTo(9);
    }

    @Test
    void aConfigOutOfOrderIsRefused() {
        assertThatThrownBy(() -> new JobWindow.Config(2, 4, 8, 1, 0, 1, 1)).hasMessageContaining("min <= initial");
        assertThatThrownBy(() -> new JobWindow.Config(4, 4, 8, 1, 5, 5, 1)).hasMessageContaining("idle lag < busy lag");
    }
}
