package io.cloudg.mcp.guard;

/** A shared guard store could not be reached: live operations are refused until it can. */
public final class GuardUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GuardUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
