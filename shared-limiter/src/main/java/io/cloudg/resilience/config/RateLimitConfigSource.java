package io.cloudg.resilience.config;

/**
 * Anything that carries a {@code ratelimit} block, such as cloudg's whole configuration, so that
 * {@code Resilience.configure(config)} accepts it without this module knowing its type.
 */
@FunctionalInterface
public interface RateLimitConfigSource {
    RateLimitConfig ratelimit();
}
