package io.cloudg.fleet.protocol;

/**
 * A message that cannot be used. Its message is the reason a dead letter carries
 * ({@code missing run_id}, {@code protocol version 9 is not supported (this build reads 1)}...).
 */
public final class MalformedMessageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedMessageException(String reason, Throwable cause) {
        super(reason, cause);
    }

    /** The reason, one line. */
    public String reason() {
        return getMessage();
    }
}
