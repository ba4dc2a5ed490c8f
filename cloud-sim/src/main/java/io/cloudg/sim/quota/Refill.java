package io.cloudg.sim.quota;

/** How a token bucket regains tokens. */
public enum Refill {
    /** Continuously: {@code rate} tokens spread evenly over each second. */
    CONTINUOUS,
    /** Once a second, {@code rate} tokens at a time (EC2's documented bucket refills at a fixed rate per second). */
    WHOLE_SECOND
}
