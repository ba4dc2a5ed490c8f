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
        assertThat(JobPool.admits(auto, 16, 0, 0, true)).isTrue();
        assertThat(JobPool.admits(auto, 16, 1, 12, true)).as("4 places free").isTrue();
        assertThat(JobPool.admits(auto, 16, 2, 16, true)).as("every place taken").isFalse();
        assertThat(JobPool.admits(auto, 16, 2, 24, true)).as("jobs wait for places").isFalse();
        assertThat(JobPool.admits(auto, 16, 15, 15, true)).as("tasks waiting on quotas, one job each").isTrue();
        assertThat(JobPool.admits(auto, 16, 16, 3, true)).as("never more tasks than places").isFalse();
    }

    @Test
    void aSetMaxInFlightIsTheOnlyLimitButTheCeilingOnCalls() {
        assertThat(JobPool.admits(4, 16, 3, 40, true)).isTrue();
        assertThat(JobPool.admits(4, 16, 4, 0, true)).isFalse();
    }

    @Test
    void noTaskIsTakenWhileTheProcesssCallsFillItsCeiling() {
        assertThat(JobPool.admits(WorkerSettings.AUTO, 4096, 0, 0, false)).isFalse();
        assertThat(JobPool.admits(4, 16, 0, 0, false)).isFalse();
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
