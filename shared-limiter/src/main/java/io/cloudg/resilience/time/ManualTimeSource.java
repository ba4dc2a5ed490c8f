package io.cloudg.resilience.time;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * A time source for tests and simulations: time moves only when told to.
 *
 * <p>{@link #sleep(long)} advances the clock to the wake-up time itself ("auto-advance"), so a
 * single-threaded test that makes 1,000 governed calls runs instantly while the clock shows the simulated
 * seconds they took. {@link #delay(long)} does not move the clock: its future completes when someone
 * advances time past it (a test driving async code advances explicitly). Thread-safe.
 */
public final class ManualTimeSource implements TimeSource {
    private final long epochMillisAtZero;
    private long now;
    private long sequence;
    private final PriorityQueue<Pending> pending = new PriorityQueue<>();

    private record Pending(long at, long seq, CompletableFuture<Void> future) implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** Starts at nano time 0 and wall time 2026-01-01T00:00:00Z. */
    public ManualTimeSource() {
        this(1_767_225_600_000L);
    }

    public ManualTimeSource(long epochMillisAtZero) {
        this.epochMillisAtZero = epochMillisAtZero;
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized long epochMillis() {
        return epochMillisAtZero + now / 1_000_000L;
    }

    /** Moves time forward and completes the delays that are due. */
    public void advance(Duration d) {
        advanceNanos(d.toNanos());
    }

    public void advanceNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("time cannot go back, but advance was " + nanos + " ns");
        }
        advanceTo(nanoTime() + nanos);
    }

    /** Moves time to {@code target} if that is later than now. */
    public void advanceTo(long target) {
        java.util.List<CompletableFuture<Void>> due = new java.util.ArrayList<>();
        synchronized (this) {
            if (target > now) {
                now = target;
            }
            while (!pending.isEmpty() && pending.peek().at <= now) {
                due.add(pending.poll().future);
            }
        }
        due.forEach(f -> f.complete(null));
    }

    /** Delays not yet due. */
    public synchronized int pendingDelays() {
        return pending.size();
    }

    /** Seconds elapsed since this source was created, for assertions. */
    public double seconds() {
        return nanoTime() / 1e9;
    }

    @Override
    public void sleep(long nanos) {
        if (nanos > 0) {
            advanceTo(nanoTime() + nanos);
        }
    }

    @Override
    public CompletableFuture<Void> delay(long nanos) {
        if (nanos <= 0) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = new CompletableFuture<>();

        synchronized (this) {
            long at = now + nanos;
            pending.add(new Pending(at, sequence++, f));
        }
        return f;
    }

    @Override
    public String toString() {
        return "ManualTimeSource[" + seconds() + "s]";
    }
}
