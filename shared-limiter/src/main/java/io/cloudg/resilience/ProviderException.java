package io.cloudg.resilience;

/**
 * A provider error for code that talks to a cloud without an SDK exception type of its own (plain HTTP
 * listings, tests, simulators). The classifier reads its code, status and {@code Retry-After} directly.
 */
public class ProviderException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String code;
    private final int httpStatus;
    private final String retryAfter;

    public ProviderException(String code, int httpStatus, String message) {
        this(code, httpStatus, message, null, null);
    }

    public ProviderException(String code, int httpStatus, String message, String retryAfter, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.httpStatus = httpStatus;
        this.retryAfter = retryAfter;
    }

    /** The provider's error code, or null. */
    public String code() { return code; }

    /** The HTTP status, or 0. */
    public int httpStatus() { return httpStatus; }

    /** The raw Retry-After value, or null. */
    public String retryAfter() { return retryAfter; }

    @Override
    public String toString() {
        return "ProviderException{" + (code == null ? "" : code + ", ") + "status=" + httpStatus + ": " + getMessage() + "}";
    }
}
