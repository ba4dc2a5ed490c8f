package io.cloudg.resilience.config;

/** A fixed (non-adaptive) bucket: the provider-wide and account levels. */
public record BucketLimit(double rateRps, double burst) {
    public BucketLimit {
        ConfigErrors.positive("bucket.rate", rateRps);
        ConfigErrors.positive("bucket.burst", burst);
    }
}
