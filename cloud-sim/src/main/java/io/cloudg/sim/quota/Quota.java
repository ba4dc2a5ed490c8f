package io.cloudg.sim.quota;

/**
 * The shape of one quota: a {@link Limit token bucket} (refilled continuously or once a second) or a
 * {@link WindowLimit fixed window} (a number of calls per window that resets at once).
 */
public sealed interface Quota permits Limit, WindowLimit {

    /** Calls per second the quota allows in the long run. */
    double ratePerSecond();

    /** Calls an idle caller may make at once. */
    double capacity();
}
