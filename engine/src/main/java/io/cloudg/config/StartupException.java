package io.cloudg.config;

/**
 * A map that could not start: bad configuration, no credentials, an unreachable endpoint. The message is
 * one line a user can act on.
 */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }

    public StartupException(String message) {
        super(message);
    }
}
