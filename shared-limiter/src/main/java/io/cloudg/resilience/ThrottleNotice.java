package io.cloudg.resilience;

/**
 * When this process last saw a throttled answer on one leaf. Calls waiting for tokens on that leaf read
 * it when they wake: a throttle since their reservation means the reservation was made at a rate that no
 * longer holds (see {@link GovernedCall#waitForTokens}). Local knowledge only, so it costs no round trip
 * to a shared store; a fleet's other workers learn of the halved rate at their next admission. Times are
 * {@link io.cloudg.resilience.time.TimeSource#nanoTime()} readings, compared by subtraction.
 */
final class ThrottleNotice {
    private volatile boolean seen;
    private volatile long at;

    void mark(long now) {
        at = now;
        seen = true;
    }

    /** Whether a throttle was seen after {@code since}. */
    boolean after(long since) {
        return seen && at - since > 0;
    }
}
