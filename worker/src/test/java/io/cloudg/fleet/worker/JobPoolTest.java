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
    void eachEndedJobIsSignalledAfterItsCountDrops() throws Exception {
        java.util.List<Integer> pendingAtSignal = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.concurrent.atomic.AtomicReference<JobPool> ref = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.Semaphore ended = new java.util.concurrent.Semaphore(0);
        JobPool pool = new JobPool(1, () -> {
            pendingAtSignal.add(ref.get().pending());
            ended.release();
        });
        ref.set(pool);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> running = pool.submit(() -> await(release));
            Future<?> queued = pool.submit(() -> await(release));
            Future<?> failing = pool.submit(() -> {
                throw new IllegalStateException("a failing job ends too");
            });
            queued.cancel(true);
            assertThat(ended.tryAcquire(200, TimeUnit.MILLISECONDS)).as("nothing ended yet").isFalse();
            release.countDown();
            running.get(30, TimeUnit.SECONDS);
            assertThat(ended.tryAcquire(3, 30, TimeUnit.SECONDS)).as("the finished, the cancelled and the failed job").isTrue();
            assertThat(failing.isDone()).isTrue();
            assertThat(pendingAtSignal).as("each signal sees its job no longer counted").containsExactly(2, 1, 0);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
