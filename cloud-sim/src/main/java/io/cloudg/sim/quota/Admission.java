package io.cloudg.sim.quota;

/**
 * What a bucket said about one call.
 *
 * @param admitted        whether the call may proceed
 * @param remaining       whole tokens left after this call
 * @param retryAfterNanos when throttled, time until one token is available; 0 when admitted
 * @param fullAfterNanos  time until the bucket is full again
 */
public record Admission(boolean admitted, long remaining, long retryAfterNanos, long fullAfterNanos) {
}
