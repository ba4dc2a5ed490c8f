package io.cloudg.resilience.spi;

/**
 * Hears the events of the calls one leaf paces (see {@link GovernorListener}). Called on the calling
 * thread, on the governor's hot path: implementations MUST NOT block or throw, and SHOULD cost no more
 * than an increment. Every method does nothing by default.
 */
public interface LeafListener {
    /** Hears nothing. */
    LeafListener NONE = new LeafListener() {
    };

    /** An attempt's answer, a refused admission or a call that gave up (see {@link CallResult}). */
    default void result(CallResult result) {
    }

    /** The governor granted a retry. */
    default void retried() {
    }

    /**
     * An admission asked the caller to wait {@code nanos} (> 0) for tokens before sending. Admissions
     * that need no wait are not reported.
     */
    default void waited(long nanos) {
    }

    /** A failure this call reported opened the leaf's breaker. */
    default void breakerTripped() {
    }
}
