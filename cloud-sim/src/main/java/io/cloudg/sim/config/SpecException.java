package io.cloudg.sim.config;

/**
 * A refused estate or fault file. The message always starts with the dotted path of the offending key,
 * e.g. {@code estate.aws.accounts: expected a positive integer, got "abc"}.
 */
public final class SpecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SpecException(String message) {
        super(message);
    }

    public SpecException(String message, Throwable cause) {
        super(message, cause);
    }
}
