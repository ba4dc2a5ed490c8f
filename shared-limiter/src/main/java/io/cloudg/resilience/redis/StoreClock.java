package io.cloudg.resilience.redis;

import io.cloudg.resilience.time.TimeSource;

/**
 * Where the scripts read {@code now}. In production it is Redis {@code TIME}, read inside every script,
 * so a fleet never mixes its nodes' clocks and no worker's clock matters. {@link #injected} exists only
 * so that the contract suite can drive time with a manual clock: it passes the source's
 * {@code nanoTime()} as an argument. Never use it with more than one process.
 */
public final class StoreClock {
    private static final StoreClock SERVER = new StoreClock(null);

    private final TimeSource injected;

    private StoreClock(TimeSource injected) {
        this.injected = injected;
    }

    /** Redis {@code TIME} (production). */
    public static StoreClock server() {
        return SERVER;
    }

    /** TEST ONLY: every script takes {@code now} from {@code time} instead of Redis {@code TIME}. */
    public static StoreClock injected(TimeSource time) {
        if (time == null) {
            throw new IllegalArgumentException("time source must not be null");
        }
        return new StoreClock(time);
    }

    /** The {@code now} argument of a script: empty for Redis TIME. */
    String arg() {
        return injected == null ? "" : Long.toString(injected.nanoTime());
    }

    boolean isServer() {
        return injected == null;
    }

    /** The injected source, which then also drives the store's own timing; empty for Redis TIME. */
    java.util.Optional<TimeSource> timeSource() {
        return java.util.Optional.ofNullable(injected);
    }
}
