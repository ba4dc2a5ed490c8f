package io.cloudg.sim.aws;

/**
 * An AWS error answer. Built only by {@link AwsErrors}; rendered in the service's own shape by
 * {@link AwsWire}.
 *
 * @see AwsErrors
 */
public final class AwsError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final int status;
    private final boolean sender;
    private final transient long retryAfterSeconds;

    AwsError(String code, String message, int status, boolean sender, long retryAfterSeconds) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
        this.sender = sender;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    /** Client's fault ({@code Sender}) or the server's ({@code Receiver}). */
    public boolean sender() {
        return sender;
    }

    /** Seconds for a {@code Retry-After} header; 0 for none. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
