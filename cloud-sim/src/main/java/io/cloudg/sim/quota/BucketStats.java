package io.cloudg.sim.quota;

/**
 * Counters of one quota bucket.
 *
 * @param key                  bucket name ({@code provider/account/region/service[/operation]} or the
 *                             provider's own granularity)
 * @param calls                calls charged to the bucket
 * @param throttled            calls answered with the provider's throttling error
 * @param admitted             calls let through
 * @param maxAdmittedPerSecond the highest number of calls admitted in any 1-second window
 * @param rate                 configured refill per second
 * @param burst                configured capacity
 * @param neighbourShare       share of the refill a configured noisy neighbour consumes
 * @param neighbourTokens      tokens the noisy neighbour has consumed so far
 */
public record BucketStats(String key, long calls, long throttled, long admitted, long maxAdmittedPerSecond,
                          double rate, double burst, double neighbourShare, double neighbourTokens) {
}
