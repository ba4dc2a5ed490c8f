package io.cloudg.sim.azure;

/** An ARM error answer: HTTP status plus {@code {"error": {"code", "message"}}}. Built by {@link AzureErrors}. */
public final class AzureError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final transient long retryAfterSeconds;

    AzureError(int status, String code, String message, long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
