package io.cloudg.resilience.spi;

/**
 * What a {@link LeafListener} hears a governed call come to. Each attempt that got an answer counts once
 * as {@link #SUCCESS}, {@link #THROTTLED}, {@link #TRANSIENT} or {@link #FATAL}; an admission the breaker
 * refused counts as {@link #REJECTED}; a call that ends without success after throttled or transient
 * attempts (retries exhausted, deadline, retry budget) counts once more as {@link #GAVE_UP}. These are the
 * counters of the throttling report ({@code throttled}, {@code transient_errors}, {@code rejected},
 * {@code gave_up}), plus successes and fatal answers, which the report does not count.
 */
public enum CallResult {
    SUCCESS, THROTTLED, TRANSIENT, FATAL, REJECTED, GAVE_UP;

    /** The lower-case name, as a metric label carries it. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
