package io.cloudg.resilience.testkit;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Waiting in tests: a condition is polled until it holds or a deadline passes, so a test goes on the moment
 * the system is ready and fails (saying what it waited for and what it saw) when it never is. Tests never
 * sleep to synchronize; the pause between two looks is {@link #EVERY} and is the only sleep.
 *
 * <p>Where the code under test has a clock of its own (Redis TIME for the fleet's governor, a simulator's
 * clock), {@link #untilClock} waits on that clock rather than on this JVM's: a lease or a cooldown is over
 * when the clock that judges it says so.
 */
public final class Poll {
    /** How long to pause between two looks at a condition. */
    public static final Duration EVERY = Duration.ofMillis(20);

    private Poll() {
    }

    /** Polls {@code condition} until it holds; fails after {@code timeout} naming {@code what}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, condition, () -> "");
    }

    /**
     * Polls {@code condition} until it holds; fails after {@code timeout} naming {@code what} and
     * {@code state} (read once, when it fails: what the test saw instead).
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                String s = state.get();
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + (s.isEmpty() ? "" : ": " + s));
            }
            pause(what);
        }
    }

    /** Polls {@code probe} until it gives a value, and returns it; fails after {@code timeout} naming {@code what}. */
    public static <T> T value(String what, Duration timeout, Supplier<Optional<T>> probe) {
        @SuppressWarnings("unchecked")
        T[] got = (T[]) new Object[1];
        until(what, timeout, () -> {
            Optional<T> v = probe.get();
            v.ifPresent(x -> got[0] = x);
            return v.isPresent();
        });
        return got[0];
    }

    /**
     * Waits until {@code clockNanos} (a clock of the system under test, e.g. Redis TIME) reads at least
     * {@code atNanos}; fails if this JVM's {@code timeout} passes first (that clock stopped, or is far behind).
     */
    public static void untilClock(String what, LongSupplier clockNanos, long atNanos, Duration timeout) {
        long[] last = {0};
        until(what, timeout, () -> (last[0] = clockNanos.getAsLong()) >= atNanos,
                () -> "the clock read " + last[0] + ", waiting for " + atNanos);
    }

    private static void pause(String what) {
        try {
            Thread.sleep(EVERY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }
}
