package io.cloudg.sim.quota;

/**
 * Counters of one quota bucket.
 *
 * @param key                  bucket name ({@code provider/account/region/service[/operation]} or the
 *                             provider's own granularity)
 * @param calls                calls charged to the bucket (admitted, or refused by this bucket)
 * @param throttled            calls this bucket refused
 * @param admitted             calls let through
 * @param maxAdmittedPerSecond the highest number of calls admitted in any 1-second window
 * @param rate                 configured calls per second in the long run (a window's calls over its length)
 * @param burst                configured capacity (a window's calls)
 * @param neighbourShare       share of the refill (of each window) a configured noisy neighbour consumes
 * @param neighbourTokens      tokens (calls) the noisy neighbour has consumed so far, bursts included
 * @param model                {@code token_bucket} or {@code fixed_window}
 * @param windowSeconds        a fixed window's length in seconds; 0 for token buckets
 * @param emptySeconds         time so far during which the bucket would have refused a call (no token left, or
 *                             the window's calls spent), from its first call on
 * @param longestEmptySeconds  the longest unbroken stretch of that time
 */
public record BucketStats(String key, long calls, long throttled, long admitted, long maxAdmittedPerSecond,
                          double rate, double burst, double neighbourShare, double neighbourTokens, String model,
                          double windowSeconds, double emptySeconds, double longestEmptySeconds) {
}
