package io.cloudg.resilience.time;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * The one source of time for a governor: a monotonic nanosecond ticker, a wall clock (only for
 * HTTP-date {@code Retry-After} values) and the means to wait.
 *
 * <p>Every operation reads {@link #nanoTime()} once and passes the value down as {@code long now};
 * nothing else in the governor reads a clock. Tests inject {@link ManualTimeSource} and advance it;
 * they never sleep to synchronize.
 */
public interface TimeSource {

    /** Monotonic time in nanoseconds; only differences are meaningful. */
    long nanoTime();

    /**
     * Wall-clock time in epoch milliseconds: to turn an HTTP date into a delay, and for the times a
     * record or a message carries (when a run started, when a task was sent).
     */
    long epochMillis();

    /** {@link #epochMillis()} as an instant. */
    default Instant instant() {
        return Instant.ofEpochMilli(epochMillis());
    }

    /**
     * Blocks the calling thread for {@code nanos}. Implementations MUST return at once for
     * {@code nanos <= 0} and MUST propagate interruption.
     */
    void sleep(long nanos) throws InterruptedException;

    /**
     * A future completed after {@code nanos} without holding any thread meanwhile. Implementations
     * MUST complete at once (on the caller's thread) for {@code nanos <= 0}.
     */
    CompletableFuture<Void> delay(long nanos);

    /** The real clock: {@link System#nanoTime()}, {@link System#currentTimeMillis()}. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }
}
