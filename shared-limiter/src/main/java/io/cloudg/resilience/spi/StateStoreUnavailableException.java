package io.cloudg.resilience.spi;

/** A shared state store could not be reached. The governor carries on with a local store meanwhile. */
public class StateStoreUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StateStoreUnavailableException(String message) {
        super(message);
    }
}
