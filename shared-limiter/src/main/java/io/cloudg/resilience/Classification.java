package io.cloudg.resilience;

import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.ErrorClass;

/**
 * The classifier's verdict on one exception, with what it read.
 *
 * @param errorClass THROTTLED, TRANSIENT or FATAL
 * @param code the provider's error code, or null
 * @param httpStatus the HTTP status, or 0
 * @param retryAfterNanos the server's Retry-After hint (capped at 300 s), or {@link RetryAfter#NONE}
 * @param summary a one-line description for reports: {@code RequestLimitExceeded: Request limit exceeded.}
 * @param window what the answer said about a fixed-window quota ({@link QuotaWindow#NONE}: nothing)
 */
public record Classification(ErrorClass errorClass, String code, int httpStatus, long retryAfterNanos, String summary,
                             QuotaWindow window) {
    public Classification {
        window = window == null ? QuotaWindow.NONE : window;
    }

    /** A verdict that says nothing about a quota window. */
    public Classification(ErrorClass errorClass, String code, int httpStatus, long retryAfterNanos, String summary) {
        this(errorClass, code, httpStatus, retryAfterNanos, summary, QuotaWindow.NONE);
    }

    /** This verdict with {@code w} as its window. */
    public Classification withWindow(QuotaWindow w) {
        return new Classification(errorClass, code, httpStatus, retryAfterNanos, summary, w);
    }

    public boolean isRetryable() {
        return errorClass != ErrorClass.FATAL;
    }

    public boolean hasRetryAfter() {
        return retryAfterNanos >= 0;
    }
}
