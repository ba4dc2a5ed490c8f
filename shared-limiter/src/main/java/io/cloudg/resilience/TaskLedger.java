package io.cloudg.resilience;

import io.cloudg.resilience.report.ThrottlingStats;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls one task lost: those that gave up after retries and those an open circuit skipped. A
 * collector that swallows per-item errors still ends PARTIAL when its ledger is not clean, so a
 * throttled collector can never report SUCCESS with fewer assets.
 *
 * <p>Governed calls find their ledger in {@link io.cloudg.resilience.CallOptions} or, failing that, in
 * the thread's binding ({@link #bind()}). A ledger may belong to a run, whose {@link ThrottlingStats}
 * then receives the counters of every call made under it. Thread-safe.
 */
public final class TaskLedger {
    private static final ThreadLocal<TaskLedger> CURRENT = new ThreadLocal<>();

    private final String task;
    private final ThrottlingStats run;
    private final AtomicInteger gaveUp = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private volatile boolean anyThrottled;
    private volatile String firstGaveUp;
    private volatile String firstSkipped;

    private TaskLedger(String task, ThrottlingStats run) {
        this.task = task;
        this.run = run;
    }

    public static TaskLedger create(String task) {
        return new TaskLedger(task, null);
    }

    /** A ledger whose calls also count in {@code run}'s statistics. */
    public static TaskLedger create(String task, ThrottlingStats run) {
        return new TaskLedger(task, run);
    }

    /** The ledger bound to this thread, or null. */
    public static TaskLedger current() {
        return CURRENT.get();
    }

    /** Binds this ledger to the calling thread until the returned binding is closed. */
    public Binding bind() {
        TaskLedger previous = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** A thread binding; closing it restores what was bound before. */
    @FunctionalInterface
    public interface Binding extends AutoCloseable {
        @Override
        void close();
    }

    public String task() {
        return task;
    }

    /** The run statistics this ledger feeds, or null. */
    public ThrottlingStats run() {
        return run;
    }

    /**
     * A call gave up after retries.
     *
     * @param reason e.g. {@code throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded: ...}
     * @param throttled whether it was throttling (rather than transient errors) that wore it down
     */
    public void recordGaveUp(String reason, boolean throttled) {
        if (gaveUp.getAndIncrement() == 0) {
            firstGaveUp = reason;
        }
        if (throttled) {
            anyThrottled = true;
        }
    }

    /** A call was refused by an open circuit. {@code reason} is the breaker's message. */
    public void recordCircuitSkipped(String reason) {
        if (skipped.getAndIncrement() == 0) {
            firstSkipped = reason;
        }
        anyThrottled = true;
    }

    public int gaveUp() {
        return gaveUp.get();
    }

    public int circuitSkipped() {
        return skipped.get();
    }

    /** No call was lost. */
    public boolean clean() {
        return gaveUp.get() == 0 && skipped.get() == 0;
    }

    /**
     * Why the task's result is incomplete, or empty if it is not:
     * {@code throttled: 1 call(s) gave up after retries (throttled: DescribeSubnets (retries exhausted): ...)}
     * and/or {@code N call(s) skipped by open circuit (circuit open for ...)}.
     */
    public Optional<String> incompleteReason() {
        int g = gaveUp.get();
        int s = skipped.get();
        if (g == 0 && s == 0) {
            return Optional.empty();
        }
        return Optional.of(Reasons.lost(anyThrottled, g, firstGaveUp, s, firstSkipped));
    }

    @Override
    public String toString() {
        return "TaskLedger{" + task + ", gaveUp=" + gaveUp + ", skipped=" + skipped + "}";
    }
}
