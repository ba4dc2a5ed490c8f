package io.cloudg.resilience;

/** A call whose {@code deadline_seconds} ran out before an attempt could be sent. */
public final class DeadlineExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DeadlineExceededException(String message) {
        super(message);
    }
}
