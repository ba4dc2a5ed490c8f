package io.cloudg.resilience;

/**
 * The classifier's verdict on one exception, with what it read.
 *
 * @param errorClass THROTTLED, TRANSIENT or FATAL
 * @param code the provider's error code, or null
 * @param httpStatus the HTTP status, or 0
 * @param retryAfterNanos the server's Retry-After hint (capped at 300 s), or {@link RetryAfter#NONE}
 * @param summary a one-line description for reports: {@code RequestLimitExceeded: Request limit exceeded.}
 */
public record Classification(ErrorClass errorClass, String code, int httpStatus, long retryAfterNanos, String summary) {

    public boolean isRetryable() {
        return errorClass != ErrorClass.FATAL;
    }

    public boolean hasRetryAfter() {
        return retryAfterNanos >= 0;
    }
}
