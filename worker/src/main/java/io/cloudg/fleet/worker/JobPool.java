package io.cloudg.fleet.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker's collector jobs, each on a virtual thread of its own, at most {@code places} at once: a job submitted
 * while every place is taken waits in line (in submission order, holding no thread) and starts when a job ends.
 * A running job's waits (the network, the governor) park its virtual thread and hold no platform thread, so the
 * places are a bound on memory, not on calls: the governor bounds those.
 *
 * <p>It counts the jobs submitted and not yet ended (waiting or running). The count rises as a job is submitted,
 * in the submitting thread, so the consumer loop sees at once what a task it just took will occupy. When a job
 * ends (the count already lowered) and leaves a place free, the pool says so ({@code onJobEnd}), so that a
 * consumer loop waiting for room is woken rather than coming round to look.
 */
final class JobPool extends AbstractExecutorService {
    private final ExecutorService threads = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("cloudg-fleet-job-", 0).factory());
    private final int places;
    private final ConcurrentLinkedQueue<Runnable> line = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final Runnable onJobEnd;
    private volatile boolean shutdown;

    JobPool(int places) {
        this(places, () -> { });
    }

    /**
     * {@code onJobEnd} runs in the job's thread after a job ends (normally, by an exception, or cancelled)
     * and leaves a place with nothing waiting for it: the moment a worker may take a task.
     */
    JobPool(int places, Runnable onJobEnd) {
        if (places < 1) {
            throw new IllegalArgumentException("a job pool needs at least one place, but was " + places);
        }
        this.places = places;
        this.onJobEnd = onJobEnd;
    }

    /** Jobs that may run at once. */
    int places() {
        return places;
    }

    /** Jobs submitted and not ended: running, or waiting for a place. */
    int pending() {
        return pending.get();
    }

    /** Jobs running now (on their virtual threads). */
    int running() {
        return running.get();
    }

    /**
     * Whether a worker may take another task. Never while the process's calls fill its ceiling
     * ({@code ratelimit.max_calls_in_flight}: {@code callRoom} false), since a task taken then would only wait,
     * its timeout running. Otherwise below {@code maxInFlight} when that is set (not
     * {@link io.cloudg.fleet.WorkerSettings#AUTO}); else while no job waits for a place and one is free
     * ({@code pendingJobs < places}), up to {@code places} tasks.
     */
    static boolean admits(int maxInFlight, int places, int tasksInFlight, int pendingJobs, boolean callRoom) {
        if (!callRoom) {
            return false;
        }
        if (maxInFlight != io.cloudg.fleet.WorkerSettings.AUTO) {
            return tasksInFlight < maxInFlight;
        }
        return tasksInFlight < places && pendingJobs < places;
    }

    /** Whether the cap on tasks (not the jobs' work) is what {@link #admits} refuses for. */
    static boolean capped(int maxInFlight, int places, int tasksInFlight) {
        return tasksInFlight >= (maxInFlight != io.cloudg.fleet.WorkerSettings.AUTO ? maxInFlight : places);
    }

    @Override
    public void execute(Runnable command) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("the job pool is shut down");
        }
        pending.incrementAndGet();
        line.add(command);
        dispatch();
    }

    /** Starts waiting jobs while places are free. */
    private void dispatch() {
        while (!line.isEmpty()) {
            int r = running.get();
            if (r >= places) {
                return; // the job that ends next dispatches again
            }
            if (!running.compareAndSet(r, r + 1)) {
                continue;
            }
            Runnable next = line.poll();
            if (next == null) { // taken by another dispatcher meanwhile
                running.decrementAndGet();
                continue;
            }
            try {
                threads.execute(() -> run(next));
            } catch (RuntimeException e) { // shut down meanwhile
                running.decrementAndGet();
                ended();
                return;
            }
        }
    }

    private void run(Runnable job) {
        try {
            job.run();
        } finally {
            running.decrementAndGet();
            ended();
            dispatch();
        }
    }

    private void ended() {
        int left = pending.decrementAndGet();
        if (left == 0 && shutdown) {
            threads.shutdown(); // the last job of a pool shut down: it terminates
        }
        if (left < places) {
            onJobEnd.run();
        }
    }

    /** Takes no more jobs; those waiting in line still run. */
    @Override
    public void shutdown() {
        shutdown = true;
        if (pending.get() == 0) {
            threads.shutdown();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> waiting = new ArrayList<>();
        for (Runnable r; (r = line.poll()) != null; ) {
            waiting.add(r);
            pending.decrementAndGet();
        }
        threads.shutdownNow();
        return waiting;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && line.isEmpty() && threads.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return threads.awaitTermination(timeout, unit);
    }
}
