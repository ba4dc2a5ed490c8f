package io.cloudg.fleet.worker;

import io.cloudg.resilience.time.TimeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's collector jobs, each on a virtual thread of its own, at most {@code places} at once: a job submitted
 * while every place is taken waits in line (holding no thread, in submission order) and starts when a job ends.
 * A running job's waits (the network, the governor) park its virtual thread and hold no platform thread, so the
 * places are a bound on memory, not on calls: the governor bounds those.
 *
 * <p>With a {@link JobWindow} (when {@code fleet.worker.threads} is not set) only the window's jobs run at once,
 * the window following the CPU: a probe, a virtual thread of the pool, sleeps {@link JobWindow.Config#probeNanos}
 * over and over and feeds how late it woke to {@link JobWindow#next}. A window that grows starts waiting jobs
 * and says so ({@code onRoom}). The waiting jobs then start the costliest first
 * ({@link #submit(Runnable, long, long)}: their own expected calls, then their task's; in submission order among
 * equals), so that a fan-out the window holds back overtakes the cheap listings.
 *
 * <p>It counts the jobs submitted and not yet ended (waiting or running). The count rises as a job is submitted,
 * in the submitting thread, so the consumer loop sees at once what a task it just took will occupy. When a job
 * ends (the count already lowered) and leaves a place free, the pool says so ({@code onRoom}), so that a
 * consumer loop waiting for room is woken rather than coming round to look.
 */
final class JobPool extends AbstractExecutorService {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet.worker.jobs");
    /** With a window: the costliest job first, then the costliest task's, then in submission order. */
    private static final Comparator<Queued> COSTLIEST = Comparator.comparingLong((Queued q) -> -q.jobCost)
            .thenComparingLong(q -> -q.taskCost).thenComparingLong(q -> q.seq);
    /** With a fixed number of places ({@code fleet.worker.threads} set): in submission order, as before the window. */
    private static final Comparator<Queued> SUBMITTED = Comparator.comparingLong(q -> q.seq);

    private final ExecutorService threads = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("cloudg-fleet-job-", 0).factory());
    private final int places;
    private final PriorityBlockingQueue<Queued> line;
    private final AtomicLong seq = new AtomicLong();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final Runnable onRoom;
    private final JobWindow.Config windowConfig;
    private final TimeSource time;
    private volatile int window;
    private volatile Thread probe;
    private volatile boolean shutdown;
    /** The running jobs' threads, for the probe to see which are runnable. */
    private final java.util.Set<Thread> active = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.function.IntSupplier runnableJobs;

    private record Queued(Runnable job, long taskCost, long jobCost, long seq) {
    }

    JobPool(int places) {
        this(places, () -> { });
    }

    /**
     * A pool of {@code places} jobs at once. {@code onRoom} runs in the job's thread after a job ends (normally, by
     * an exception, or cancelled) and leaves a place with nothing waiting for it: the moment a worker may take a
     * task.
     */
    JobPool(int places, Runnable onRoom) {
        this(places, onRoom, null, null);
    }

    /**
     * A pool whose jobs at once follow {@code window} (up to {@code places}, its {@link JobWindow.Config#max}), its
     * probe timed by {@code time}; {@code onRoom} also runs when the window grows. A null {@code window}: the
     * places alone.
     */
    JobPool(int places, Runnable onRoom, JobWindow.Config window, TimeSource time) {
        this(places, onRoom, window, time, null);
    }

    /**
     * TEST ONLY: as above, the running jobs found runnable at each probe counted by {@code runnableJobs} instead of
     * their threads' states (a test's jobs cannot keep a core busy without starving the probe of its carrier).
     */
    JobPool(int places, Runnable onRoom, JobWindow.Config window, TimeSource time, java.util.function.IntSupplier runnableJobs) {
        if (places < 1) {
            throw new IllegalArgumentException("a job pool needs at least one place, but was " + places);
        }
        if (window != null && window.max() != places) {
            throw new IllegalArgumentException("a job window's max (" + window.max() + ") must be the places ("
                    + places + ")");
        }
        this.places = places;
        this.onRoom = onRoom;
        this.windowConfig = window;
        this.time = time;
        this.runnableJobs = runnableJobs != null ? runnableJobs : this::runnable;
        this.line = new PriorityBlockingQueue<>(16, window == null ? SUBMITTED : COSTLIEST);
        this.window = window == null ? places : window.initial();
        if (window != null) {
            probe = Thread.ofVirtual().name("cloudg-fleet-job-window").start(this::probe);
        }
    }

    /** Jobs that may run at once at most. */
    int places() {
        return places;
    }

    /** Whether the jobs at once follow a {@link JobWindow}. */
    boolean windowed() {
        return windowConfig != null;
    }

    /** Jobs that may run at once now: the window's, else the places. */
    int window() {
        return window;
    }

    /** Jobs submitted and not ended: running, or waiting for a place. */
    int pending() {
        return pending.get();
    }

    /** Jobs running now (on their virtual threads). */
    int running() {
        return running.get();
    }

    /** Jobs waiting in line for a place. */
    int waiting() {
        return line.size();
    }

    /**
     * Whether a worker may take another task. Never while the process's calls fill its ceiling
     * ({@code ratelimit.max_calls_in_flight}: {@code callRoom} false), since a task taken then would only wait,
     * its timeout running. Otherwise below {@code maxInFlight} when that is set (not
     * {@link io.cloudg.fleet.WorkerSettings#AUTO}); else up to {@code places} tasks: with a fixed number of places
     * ({@code fleet.worker.threads} set: {@code windowed} false) while no job waits for a place and one is free
     * ({@code pendingJobs < places}); with a {@link JobWindow}, while fewer jobs wait for a place than the window
     * ({@code waitingJobs < window}), so that the costliest of the tasks a worker could take next is in line,
     * ahead of the cheap jobs already waiting, when a place frees.
     */
    static boolean admits(int maxInFlight, int places, boolean windowed, int window, int tasksInFlight,
                          int pendingJobs, int waitingJobs, boolean callRoom) {
        if (!callRoom) {
            return false;
        }
        if (maxInFlight != io.cloudg.fleet.WorkerSettings.AUTO) {
            return tasksInFlight < maxInFlight;
        }
        if (windowed) {
            return tasksInFlight < places && waitingJobs < window;
        }
        return tasksInFlight < places && pendingJobs < places;
    }

    /** Whether the cap on tasks (not the jobs' work) is what {@link #admits} refuses for. */
    static boolean capped(int maxInFlight, int places, int tasksInFlight) {
        return tasksInFlight >= (maxInFlight != io.cloudg.fleet.WorkerSettings.AUTO ? maxInFlight : places);
    }

    @Override
    public void execute(Runnable command) {
        enqueue(command, 0, 0);
    }

    /**
     * Submits a job expected to make {@code jobCost} calls, of a task expected to make {@code taskCost}: with a
     * window it waits for a place behind costlier jobs, and among jobs of a cost behind those of costlier tasks;
     * without, in submission order.
     */
    Future<?> submit(Runnable job, long taskCost, long jobCost) {
        FutureTask<Void> f = new FutureTask<>(job, null);
        enqueue(f, taskCost, jobCost);
        return f;
    }

    private void enqueue(Runnable command, long taskCost, long jobCost) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("the job pool is shut down");
        }
        pending.incrementAndGet();
        line.add(new Queued(command, taskCost, jobCost, seq.getAndIncrement()));
        dispatch();
    }

    /** Starts waiting jobs while places are free. */
    private void dispatch() {
        while (!line.isEmpty()) {
            int r = running.get();
            if (r >= window) {
                return; // the job that ends next (or the window growing) dispatches again
            }
            if (!running.compareAndSet(r, r + 1)) {
                continue;
            }
            Queued next = line.poll();
            if (next == null) { // taken by another dispatcher meanwhile
                running.decrementAndGet();
                continue;
            }
            try {
                threads.execute(() -> run(next.job()));
            } catch (RuntimeException e) { // shut down meanwhile
                running.decrementAndGet();
                ended();
                return;
            }
        }
    }

    private void run(Runnable job) {
        Thread self = Thread.currentThread();
        active.add(self);
        try {
            job.run();
        } finally {
            active.remove(self);
            running.decrementAndGet();
            int left = ended();
            dispatch();
            // room for a task as admits() sees it: a place left free, or (windowed) fewer jobs waiting than the window
            if (windowConfig == null ? left < places : line.size() < window) {
                onRoom.run();
            }
        }
    }

    /** Counts a job ended; the jobs left. */
    private int ended() {
        int left = pending.decrementAndGet();
        if (left == 0 && shutdown) {
            threads.shutdown(); // the last job of a pool shut down: it terminates
        }
        return left;
    }

    /** The window's probe: sleeps, measures how late it woke, decides; until the pool is shut down. */
    private void probe() {
        JobWindow.Config c = windowConfig;
        JobWindow.State s = JobWindow.State.start(c, time.nanoTime());
        try {
            while (!shutdown) {
                long asleep = time.nanoTime();
                time.sleep(c.probeNanos());
                long now = time.nanoTime();
                int before = s.window();
                long lag = now - asleep - c.probeNanos();
                long mean = (s.lagSum() + Math.max(0, lag)) / (s.samples() + 1);
                s = JobWindow.next(s, lag, now, running.get(), runnableJobs.getAsInt(), line.size(), c);
                if (s.window() != before) {
                    window = s.window();
                    LOG.debug("job window {} -> {} (woken {} ms late on average; {} running, {} waiting)", before,
                            s.window(), mean / 1_000_000L, running.get(), line.size());
                    if (s.window() > before) {
                        dispatch();
                        onRoom.run();
                    }
                }
            }
        } catch (InterruptedException e) {
            // shut down
        }
    }

    /** The running jobs whose threads are runnable (on a core, or ready for one), not parked. */
    int runnable() {
        int n = 0;
        for (Thread t : active) {
            if (t.getState() == Thread.State.RUNNABLE) {
                n++;
            }
        }
        return n;
    }

    /** Takes no more jobs; those waiting in line still run. */
    @Override
    public void shutdown() {
        shutdown = true;
        stopProbe();
        if (pending.get() == 0) {
            threads.shutdown();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        stopProbe();
        List<Runnable> waiting = new ArrayList<>();
        for (Queued q; (q = line.poll()) != null; ) {
            waiting.add(q.job());
            pending.decrementAndGet();
        }
        threads.shutdownNow();
        return waiting;
    }

    private void stopProbe() {
        Thread p = probe;
        if (p != null) {
            p.interrupt();
        }
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
