package io.cloudg.resilience.core;

/** How a whole call (all its attempts) ended, as far as its breaker is concerned. */
public enum CallVerdict {
    /** The call is still going (another attempt follows): the breaker does not hear of it yet. */
    NONE,
    /** It succeeded. Resets the failure count; a probe closes the breaker. */
    SUCCESS,
    /**
     * It ended with a provider error such as AccessDenied or 404: the service is reachable, so this
     * counts like a success.
     */
    REACHABLE,
    /** It still failed with throttling or a transient error after all its retries. */
    FAILURE,
    /**
     * It was stopped by cloudg (an empty retry budget, cancellation), not by the service: never counted.
     * A probe ending so gives its lease back, so the next call probes.
     */
    NEUTRAL
}
