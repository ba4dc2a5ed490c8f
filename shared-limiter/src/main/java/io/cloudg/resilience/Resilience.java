package io.cloudg.resilience;

import io.cloudg.resilience.config.RateLimitConfig;

/**
 * The process-wide governor. Every client cloudg builds in a process shares it, so that forty EC2
 * clients of one account pace themselves as one. {@link #configure(RateLimitConfig)} sets its limits
 * (keeping what it has learned); {@link #install(Governor)} swaps in another one (a Redis-backed
 * governor, or a test's).
 */
public final class Resilience {
    private static volatile Governor current;

    private Resilience() {
    }

    /** The process-wide governor, created with the built-in limits on first use. */
    public static Governor get() {
        Governor g = current;
        if (g == null) {
            synchronized (Resilience.class) {
                g = current;
                if (g == null) {
                    current = g = Governor.create(RateLimitConfig.defaults());
                }
            }
        }
        return g;
    }

    /** Applies {@code config} to the process-wide governor and returns it. */
    public static Governor configure(RateLimitConfig config) {
        synchronized (Resilience.class) {
            Governor g = current;
            if (g == null) {
                current = g = Governor.create(config);
            } else {
                g.reconfigure(config);
            }
            return g;
        }
    }

    /** Applies the {@code ratelimit} block of {@code config} (e.g. a whole {@code CloudGConfig}). */
    public static Governor configure(io.cloudg.resilience.config.RateLimitConfigSource config) {
        return configure(config.ratelimit());
    }

    /** Makes {@code governor} the process-wide one; returns the previous one (not closed). */
    public static Governor install(Governor governor) {
        synchronized (Resilience.class) {
            Governor previous = current;
            current = governor;
            return previous;
        }
    }

    /** THROTTLED, TRANSIENT or FATAL, with the default classifier. */
    public static ErrorClass classify(Throwable t) {
        return Classifier.defaultClassifier().classify(t);
    }

    /** {@code get().budget(provider)}. */
    public static RetryBudget budget(String provider) {
        return get().budget(provider);
    }
}
