package io.cloudg.fleet.worker;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker's collector threads, counting the jobs submitted and not yet ended (queued or running). The count
 * rises as a job is submitted, in the submitting thread, so the consumer loop sees at once what a task it
 * just took will occupy; a pool's own active count lags behind thread start-up. When a job ends (the count
 * already lowered) and a thread is left idle, the pool says so ({@code onJobEnd}), so that a consumer loop
 * waiting for a free thread is woken rather than coming round to look.
 */
final class JobPool extends AbstractExecutorService {
    private final ExecutorService pool;
    private final int threads;
    private final AtomicInteger pending = new AtomicInteger();
    private final Runnable onJobEnd;

    JobPool(int threads) {
        this(threads, () -> { });
    }

    /**
     * {@code onJobEnd} runs in the job's thread after a job ends (normally, by an exception, or cancelled)
     * and leaves a thread with nothing to do (no job waits for one): the moment a worker may take a task.
     */
    JobPool(int threads, Runnable onJobEnd) {
        this.threads = threads;
        this.onJobEnd = onJobEnd;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cloudg-fleet-job");
            t.setDaemon(true);
            return t;
        });
    }

    int threads() {
        return threads;
    }

    /** Jobs submitted and not ended: running, or waiting for a thread. */
    int pending() {
        return pending.get();
    }

    /**
     * Whether a worker may take another task: below {@code maxInFlight} when it is set (not
     * {@link io.cloudg.fleet.WorkerSettings#AUTO}); otherwise while a thread is idle and no job waits for one
     * ({@code pendingJobs < threads}), up to {@code threads} tasks.
     */
    static boolean admits(int maxInFlight, int threads, int tasksInFlight, int pendingJobs) {
        if (maxInFlight != io.cloudg.fleet.WorkerSettings.AUTO) {
            return tasksInFlight < maxInFlight;
        }
        return tasksInFlight < threads && pendingJobs < threads;
    }

    /** Whether the cap on tasks (not the threads' work) is what {@link #admits} refuses for. */
    static boolean capped(int maxInFlight, int threads, int tasksInFlight) {
        return tasksInFlight >= (maxInFlight != io.cloudg.fleet.WorkerSettings.AUTO ? maxInFlight : threads);
    }

    @Override
    public void execute(Runnable command) {
        pending.incrementAndGet();
        try {
            pool.execute(() -> {
                try {
                    command.run();
                } finally {
                    ended();
                }
            });
        } catch (RuntimeException e) {
            ended();
            throw e;
        }
    }

    private void ended() {
        if (pending.decrementAndGet() < threads) {
            onJobEnd.run();
        }
    }

    @Override
    public void shutdown() {
        pool.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return pool.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return pool.awaitTermination(timeout, unit);
    }
}
