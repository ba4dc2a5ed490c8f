package io.cloudg.resilience.redis;

/**
 * Redis holds governor state in a format this cloudg does not read (written by another version, or not by
 * cloudg at all). Refused rather than misread; the message names the key and both versions. Not a
 * reason to degrade: point this estate at another {@code key_prefix} or run {@code cloudg ratelimit reset}.
 */
public final class StateFormatException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    StateFormatException(String message) {
        super(message);
    }
}
