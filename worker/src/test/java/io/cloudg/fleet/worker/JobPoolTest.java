package io.cloudg.fleet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.WorkerSettings;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JobPoolTest {
    @Test
    void unsetMaxInFlightTakesTasksWhileAPlaceIsFreeAndNoJobWaits() {
        int auto = WorkerSettings.AUTO;
        assertThat(JobPool.admits(auto, 16, false, 16, 0, 0, 0, true)).isTrue();
        assertThat(JobPool.admits(auto, 16, false, 16, 1, 12, 0, true)).as("4 places free").isTrue();
        assertThat(JobPool.admits(auto, 16, false, 16, 2, 16, 0, true)).as("every place taken").isFalse();
        assertThat(JobPool.admits(auto, 16, false, 16, 2, 24, 0, true)).as("jobs wait for places").isFalse();
        assertThat(JobPool.admits(auto, 16, false, 16, 15, 15, 0, true)).as("tasks waiting on quotas, one job each").isTrue();
        assertThat(JobPool.admits(auto, 16, false, 16, 16, 3, 0, true)).as("never more tasks than places").isFalse();
    }

    @Test
    void withAJobWindowTasksAreTakenWhileFewerJobsWaitThanTheWindow() {
        int auto = WorkerSettings.AUTO;
        assertThat(JobPool.admits(auto, 4096, true, 8, 1, 14, 6, true)).as("6 jobs wait, window 8").isTrue();
        assertThat(JobPool.admits(auto, 4096, true, 8, 2, 27, 19, true)).as("19 jobs wait").isFalse();
        assertThat(JobPool.admits(auto, 4096, true, 32, 18, 18, 0, true)).as("18 tasks waiting on slow calls").isTrue();
        assertThat(JobPool.admits(auto, 16, true, 16, 16, 16, 0, true)).as("never more tasks than places").isFalse();
        assertThat(JobPool.admits(4, 4096, true, 8, 3, 40, 30, true)).as("max_in_flight set").isTrue();
        assertThat(JobPool.admits(auto, 4096, true, 8, 0, 0, 0, false)).as("the ceiling on calls").isFalse();
    }

    @Test
    void aSetMaxInFlightIsTheOnlyLimitButTheCeilingOnCalls() {
        assertThat(JobPool.admits(4, 16, false, 16, 3, 40, 0, true)).isTrue();
        assertThat(JobPool.admits(4, 16, false, 16, 4, 0, 0, true)).isFalse();
    }

    @Test
    void noTaskIsTakenWhileTheProcesssCallsFillItsCeiling() {
        assertThat(JobPool.admits(WorkerSettings.AUTO, 4096, false, 4096, 0, 0, 0, false)).isFalse();
        assertThat(JobPool.admits(4, 16, false, 16, 0, 0, 0, false)).isFalse();
    }

    @Test
    void jobsRunOnVirtualThreadsAtMostPlacesAtOnce() throws Exception {
        JobPool pool = new JobPool(3);
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean virtual = new java.util.concurrent.atomic.AtomicBoolean(true);
        CountDownLatch go = new CountDownLatch(1);
        java.util.List<Future<?>> jobs = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                jobs.add(pool.submit(() -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    virtual.compareAndSet(true, Thread.currentThread().isVirtual());
                    await(go);
                    running.decrementAndGet();
                }));
            }
            assertThat(pool.pending()).isEqualTo(20);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (running.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5); // the first three starting: nothing is timed
            }
            assertThat(pool.running()).isEqualTo(3);
            go.countDown();
            for (Future<?> f : jobs) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(most).as("never more than the places").hasValue(3);
            assertThat(virtual).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void waitingJobsStartInTheOrderTheyWereSubmitted() throws Exception {
        JobPool pool = new JobPool(1);
        java.util.List<Integer> started = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        java.util.List<Future<?>> jobs = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                int n = i;
                jobs.add(pool.submit(() -> {
                    started.add(n);
                    await(go);
                }));
            }
            go.countDown();
            for (Future<?> f : jobs) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(started).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).boxed().toList());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withAWindowWaitingJobsStartCostliestFirstThenThoseOfTheCostliestTaskThenInOrder() throws Exception {
        JobPool pool = new JobPool(1, () -> { }, window(1, 1, 1), new SteppedClock()); // its probe never wakes
        java.util.List<String> started = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        try {
            Future<?> blocker = pool.submit(() -> await(go), 0, 0);
            java.util.List<Future<?>> jobs = new java.util.ArrayList<>();
            String[][] submitted = {{"small-a", "12", "1"}, {"ami-listing", "415", "1"}, {"small-b", "12", "2"},
                    {"ami-fan-out", "415", "2"}, {"small-c", "12", "1"}, {"other-ami-fan-out", "415", "2"}};
            for (String[] j : submitted) {
                jobs.add(pool.submit(() -> started.add(j[0]), Long.parseLong(j[1]), Long.parseLong(j[2])));
            }
            assertThat(pool.waiting()).isEqualTo(6);
            go.countDown();
            blocker.get(30, TimeUnit.SECONDS);
            for (Future<?> f : jobs) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(started).containsExactly("ami-fan-out", "other-ami-fan-out", "small-b", "ami-listing", "small-a",
                    "small-c");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A clock for a windowed pool's probe: each sleep waits until the test lets one sample through
     * ({@link #sample}), which wakes {@code lag} late.
     */
    private static final class SteppedClock implements io.cloudg.resilience.time.TimeSource {
        private final java.util.concurrent.SynchronousQueue<Long> lags = new java.util.concurrent.SynchronousQueue<>();
        private final java.util.concurrent.atomic.AtomicInteger sleeps = new java.util.concurrent.atomic.AtomicInteger();
        private volatile long now;
        private int samples;

        /**
         * Lets the probe take one sample, {@code lagNanos} late; returns once it sleeps again, its decision on the
         * sample in place.
         */
        void sample(long lagNanos) throws InterruptedException {
            assertThat(lags.offer(lagNanos, 30, TimeUnit.SECONDS)).as("the probe asleep").isTrue();
            int taken = ++samples; // the probe sleeps for the next one only once it has decided on this one
            io.cloudg.resilience.testkit.Poll.until("the probe asleep again", java.time.Duration.ofSeconds(30),
                    () -> sleeps.get() > taken);
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public long epochMillis() {
            return now / 1_000_000L;
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            sleeps.incrementAndGet();
            long lag = lags.take();
            now += nanos + lag;
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> delay(long nanos) {
            throw new UnsupportedOperationException();
        }
    }

    /** Every sample decides: idle at no lag, saturated at 10 ms or more. */
    private static JobWindow.Config window(int initial, int min, int max) {
        return new JobWindow.Config(initial, min, max, 1, 0, 10_000_000L, 1);
    }

    @Test
    void aWindowedPoolWhoseJobsWaitOnSlowCallsOpensToThemAllWhileTheCoresIdle() throws Exception {
        SteppedClock clock = new SteppedClock();
        java.util.concurrent.atomic.AtomicInteger rooms = new java.util.concurrent.atomic.AtomicInteger();
        JobPool pool = new JobPool(4096, rooms::incrementAndGet, window(2, 1, 4096), clock);
        CountDownLatch answers = new CountDownLatch(1);
        java.util.List<Future<?>> jobs = new java.util.ArrayList<>();
        try {
            assertThat(pool.windowed()).isTrue();
            for (int i = 0; i < 18; i++) {
                jobs.add(pool.submit(() -> await(answers), 0, 0)); // each waiting on its slow call
            }
            io.cloudg.resilience.testkit.Poll.until("the window's two jobs running", java.time.Duration.ofSeconds(30),
                    () -> pool.running() == 2);
            assertThat(pool.waiting()).isEqualTo(16);
            for (int expected : new int[] {4, 8, 16, 18}) {
                // idle cores, then cores kept busy by other processes while every job of ours is parked on its call:
                // either way a job more costs a core nothing until its answer comes
                io.cloudg.resilience.testkit.Poll.until("every running job parked", java.time.Duration.ofSeconds(30),
                        () -> pool.runnable() == 0, () -> pool.runnable() + " runnable");
                clock.sample(expected <= 4 ? 0 : 50_000_000L);
                io.cloudg.resilience.testkit.Poll.until(expected + " jobs running", java.time.Duration.ofSeconds(30),
                        () -> pool.running() == expected, () -> pool.running() + " running, window " + pool.window());
            }
            assertThat(pool.window()).isEqualTo(32);
            assertThat(rooms).as("each growth says there is room").hasValueGreaterThanOrEqualTo(4);
            answers.countDown();
            for (Future<?> f : jobs) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWindowedPoolWhoseProbeWakesLateStartsNoMoreJobsThanItsShrunkWindow() throws Exception {
        SteppedClock clock = new SteppedClock();
        // every running job counted runnable (using a core, as a job parsing pages does): the lag is ours
        JobPool[] self = new JobPool[1];
        JobPool pool = new JobPool(4096, () -> { }, window(4, 1, 4096), clock, () -> self[0].running());
        self[0] = pool;
        java.util.List<CountDownLatch> answers = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        try {
            for (int i = 0; i < 10; i++) {
                CountDownLatch answer = new CountDownLatch(1);
                answers.add(answer);
                pool.submit(() -> {
                    started.incrementAndGet();
                    await(answer);
                }, 0, 0);
            }
            io.cloudg.resilience.testkit.Poll.until("4 running", java.time.Duration.ofSeconds(30),
                    () -> pool.running() == 4);
            assertThat(pool.runnable()).as("their threads' states: all four parked on their answer").isZero();
            io.cloudg.resilience.testkit.Poll.until("4 running", java.time.Duration.ofSeconds(30),
                    () -> started.get() == 4);
            clock.sample(50_000_000L); // the cores saturated: half the 4 running
            assertThat(pool.window()).isEqualTo(2);
            clock.sample(0);
            assertThat(pool.window()).as("grown again from 2, since jobs wait and the cores idle").isEqualTo(4);
            clock.sample(50_000_000L);
            clock.sample(50_000_000L);
            clock.sample(50_000_000L);
            assertThat(pool.window()).isEqualTo(1);
            for (int i = 0; i < 4; i++) {
                answers.get(i).countDown(); // the 4 running jobs end
            }
            io.cloudg.resilience.testkit.Poll.until("one job of the window running, five waiting",
                    java.time.Duration.ofSeconds(30), () -> pool.running() == 1 && pool.waiting() == 5,
                    () -> pool.running() + " running, " + pool.waiting() + " waiting");
            // a job counts as running when its thread is started, a moment before its body runs (as the first four)
            io.cloudg.resilience.testkit.Poll.until("the fifth job's body", java.time.Duration.ofSeconds(30),
                    () -> started.get() >= 5);
            assertThat(started).as("the window's one after the first four").hasValue(5);
            assertThat(pool.running()).as("no more than the window of one").isEqualTo(1);
            assertThat(pool.waiting()).isEqualTo(5);
        } finally {
            answers.forEach(CountDownLatch::countDown);
            pool.shutdownNow();
        }
    }

    @Test
    void withFixedPlacesWaitingJobsStartInTheOrderTheyWereSubmittedWhateverTheirCost() throws Exception {
        JobPool pool = new JobPool(1);
        java.util.List<Integer> started = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        java.util.List<Future<?>> jobs = new java.util.ArrayList<>();
        try {
            jobs.add(pool.submit(() -> await(go), 0, 0));
            for (int i = 0; i < 6; i++) {
                int n = i;
                jobs.add(pool.submit(() -> started.add(n), 100 * (n % 3), n));
            }
            go.countDown();
            for (Future<?> f : jobs) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(started).containsExactly(0, 1, 2, 3, 4, 5);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void pendingCountsQueuedAndRunningJobsFromTheirSubmission() throws Exception {
        JobPool pool = new JobPool(2);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> a = pool.submit(() -> await(release));
            Future<?> b = pool.submit(() -> await(release));
            Future<?> c = pool.submit(() -> await(release));
            assertThat(pool.pending()).as("counted in the submitting thread, queued or not").isEqualTo(3);
            c.cancel(true);
            release.countDown();
            a.get(30, TimeUnit.SECONDS);
            b.get(30, TimeUnit.SECONDS);
            pool.submit(() -> { }).get(30, TimeUnit.SECONDS);
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.pending()).as("a cancelled job ends too").isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aJobEndIsSignalledWhenItLeavesAPlaceFree() throws Exception {
        java.util.List<Integer> pendingAtSignal = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.concurrent.atomic.AtomicReference<JobPool> ref = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.Semaphore signals = new java.util.concurrent.Semaphore(0);
        JobPool pool = new JobPool(2, () -> {
            pendingAtSignal.add(ref.get().pending());
            signals.release();
        });
        ref.set(pool);
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch last = new CountDownLatch(1);
        try {
            Future<?> a = pool.submit(() -> await(first));
            Future<?> b = pool.submit(() -> await(first));
            Future<?> queued = pool.submit(() -> await(last));
            Future<?> cancelled = pool.submit(() -> await(last));
            cancelled.cancel(true);
            first.countDown();
            a.get(30, TimeUnit.SECONDS);
            b.get(30, TimeUnit.SECONDS);
            assertThat(signals.tryAcquire(30, TimeUnit.SECONDS)).as("a place free once the line is empty").isTrue();
            assertThat(pendingAtSignal).as("no signal while a waiting job took the freed place").containsExactly(1);
            Future<?> failing = pool.submit(() -> {
                throw new IllegalStateException("a failing job ends too");
            });
            last.countDown();
            queued.get(30, TimeUnit.SECONDS);
            assertThat(signals.tryAcquire(2, 30, TimeUnit.SECONDS)).as("the last two jobs, one failed").isTrue();
            assertThat(failing.isDone()).isTrue();
            assertThat(pendingAtSignal).as("each signal sees its job no longer counted").hasSize(3).endsWith(0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theCapOnTasksIsThePlacesUnlessMaxInFlightIsSet() {
        assertThat(JobPool.capped(WorkerSettings.AUTO, 16, 16)).isTrue();
        assertThat(JobPool.capped(WorkerSettings.AUTO, 16, 15)).as("a free place is not the cap").isFalse();
        assertThat(JobPool.capped(4, 16, 4)).isTrue();
        assertThat(JobPool.capped(4, 16, 3)).isFalse();
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
