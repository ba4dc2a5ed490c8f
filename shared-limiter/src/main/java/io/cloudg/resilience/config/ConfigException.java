package io.cloudg.resilience.config;

/** A configuration value of the wrong type or out of range. The message names the key and the value. */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String key;

    ConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    /** The full key path, e.g. {@code ratelimit.aws.max_rps}. */
    public String key() {
        return key;
    }
}
