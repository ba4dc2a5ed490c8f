package io.cloudg.resilience.spi;


/**
 * A request for one bulkhead slot.
 *
 * @param bulkhead the provider x account scope whose concurrency is capped
 * @param maxConcurrency the cap ({@code max_concurrency})
 * @param leaseNanos how long the slot stays taken unless renewed or released
 */
public record SlotRequest(Scope bulkhead, int maxConcurrency, long leaseNanos) {
    public SlotRequest {
        if (maxConcurrency < 1 || leaseNanos <= 0) {
            throw new IllegalArgumentException("max_concurrency must be >= 1 and the lease positive, but were "
                    + maxConcurrency + " and " + leaseNanos + " ns");
        }
    }
}
