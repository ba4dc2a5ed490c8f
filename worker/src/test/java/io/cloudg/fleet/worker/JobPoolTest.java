package io.cloudg.fleet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.WorkerSettings;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JobPoolTest {
    @Test
    void unsetMaxInFlightTakesTasksWhileAThreadIsIdleAndNoJobWaits() {
        int auto = WorkerSettings.AUTO;
        assertThat(JobPool.admits(auto, 16, 0, 0)).isTrue();
        assertThat(JobPool.admits(auto, 16, 1, 12)).as("4 threads idle").isTrue();
        assertThat(JobPool.admits(auto, 16, 2, 16)).as("every thread busy").isFalse();
        assertThat(JobPool.admits(auto, 16, 2, 24)).as("jobs wait for threads").isFalse();
        assertThat(JobPool.admits(auto, 16, 15, 15)).as("tasks waiting on quotas, one job each").isTrue();
        assertThat(JobPool.admits(auto, 16, 16, 3)).as("never more tasks than threads").isFalse();
    }

    @Test
    void aSetMaxInFlightIsTheOnlyLimit() {
        assertThat(JobPool.admits(4, 16, 3, 40)).isTrue();
        assertThat(JobPool.admits(4, 16, 4, 0)).isFalse();
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
    void aJobEndIsSignalledWhenItLeavesAThreadIdle() throws Exception {
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
            assertThat(signals.tryAcquire(30, TimeUnit.SECONDS)).as("a thread idle once the queue is empty").isTrue();
            assertThat(pendingAtSignal).as("no signal while a queued job took the freed thread").containsExactly(1);
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
    void theCapOnTasksIsTheThreadsUnlessMaxInFlightIsSet() {
        assertThat(JobPool.capped(WorkerSettings.AUTO, 16, 16)).isTrue();
        assertThat(JobPool.capped(WorkerSettings.AUTO, 16, 15)).as("a free thread is not the cap").isFalse();
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
