package io.cloudg.sim.quota;

/**
 * What a bucket said about one call.
 *
 * @param admitted        whether the call may proceed
 * @param remaining       whole calls left after this one (tokens, or calls left in the window)
 * @param retryAfterNanos when refused, time until one call would be admitted (as far as the bucket knows); 0
 *                        when admitted
 * @param fullAfterNanos  time until the whole allowance is back (bucket full again, or the window resets)
 */
public record Admission(boolean admitted, long remaining, long retryAfterNanos, long fullAfterNanos) {
}
