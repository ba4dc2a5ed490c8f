package io.cloudg.resilience.spi;

import io.cloudg.resilience.core.QuotaWindow;

/**
 * What an {@link ErrorInspector} could read off one exception: the provider's error code, the HTTP
 * status, the raw {@code Retry-After} value, the provider's own message, what it said about a fixed-window
 * quota (its reset time, its size), and optionally the SDK's own verdict. Every field is optional; {@code 0}
 * means "no HTTP status".
 */
public final class ErrorFacts {
    private final String code;
    private final int httpStatus;
    private final String retryAfter;
    private final String message;
    private final ErrorClass sdkVerdict;
    private final QuotaWindow window;

    private ErrorFacts(Builder b) {
        this.code = b.code == null || b.code.isBlank() ? null : b.code.trim();
        this.httpStatus = b.httpStatus;
        this.retryAfter = b.retryAfter;
        this.message = b.message;
        this.sdkVerdict = b.sdkVerdict;
        this.window = b.window == null ? QuotaWindow.NONE : b.window;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The provider's error code, e.g. {@code RequestLimitExceeded}; null if none. */
    public String code() { return code; }

    /** The HTTP status, or 0 if none (gRPC, connection errors). */
    public int httpStatus() { return httpStatus; }

    /** The raw {@code Retry-After} value (seconds or an HTTP date), or null. */
    public String retryAfter() { return retryAfter; }

    /** The provider's message without SDK decoration, or null. */
    public String message() { return message; }

    /**
     * The SDK's own classification, e.g. {@code THROTTLED} when the AWS SDK says
     * {@code isThrottlingException()}. Used only when the code and the status say nothing.
     */
    public ErrorClass sdkVerdict() { return sdkVerdict; }

    /**
     * What the answer said about a fixed-window quota: when the window resets (not capped yet), how many calls
     * it grants and how long it is; {@link QuotaWindow#NONE} when nothing.
     */
    public QuotaWindow window() { return window; }

    public boolean isEmpty() {
        return code == null && httpStatus == 0 && sdkVerdict == null;
    }

    @Override
    public String toString() {
        return "ErrorFacts{code=" + code + ", status=" + httpStatus + ", retryAfter=" + retryAfter
                + ", verdict=" + sdkVerdict + (window.known() ? ", window=" + window : "") + ", message=" + message + "}";
    }

    public static final class Builder {
        private String code;
        private int httpStatus;
        private String retryAfter;
        private String message;
        private ErrorClass sdkVerdict;
        private QuotaWindow window;

        public Builder code(String code) { this.code = code; return this; }
        public Builder httpStatus(int status) { this.httpStatus = status; return this; }
        public Builder retryAfter(String raw) { this.retryAfter = raw; return this; }
        public Builder message(String message) { this.message = message; return this; }
        public Builder sdkVerdict(ErrorClass verdict) { this.sdkVerdict = verdict; return this; }
        public Builder window(QuotaWindow w) { this.window = w; return this; }

        public ErrorFacts build() {
            return new ErrorFacts(this);
        }
    }
}
