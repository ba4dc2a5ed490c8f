package io.cloudg.resilience.spi;

/** How the governor treats a failed call. */
public enum ErrorClass {
    /** The provider asked us to slow down: halve the leaf rate, honour Retry-After, retry. */
    THROTTLED,
    /** A passing fault (408, 500, 502, 504, connection reset, timeout): retry with backoff. */
    TRANSIENT,
    /** Anything else: re-raise at once. Proves the service is reachable, so it resets the breaker count. */
    FATAL
}
