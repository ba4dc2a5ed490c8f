package io.cloudg.fleet;

import io.cloudg.CloudGConfig;
import io.cloudg.Governors;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.time.TimeSource;

/**
 * The governor of a fleet process: the Redis-backed one, so that the coordinator and every worker draw
 * from the same buckets; built the one way every command builds its governor ({@link Governors}: a Redis that
 * cannot be used at start is refused). A fleet on the in-memory governor would let each worker spend the
 * whole quota, so it is refused too.
 */
public final class FleetGovernor {
    private FleetGovernor() {
    }

    /** Refuses a fleet configuration whose governor would not be shared (checked before anything is reached). */
    public static void requireShared(CloudGConfig config) {
        if (config.ratelimit().backend() != RateLimitConfig.Backend.REDIS) {
            throw ConfigErrors.invalid("ratelimit.backend", "a fleet shares its governor through Redis: pass --redis URL "
                    + "or set ratelimit.backend: redis with ratelimit.redis.url");
        }
        config.ratelimit().redis().requireUrl();
    }

    public static Governor create(CloudGConfig config) {
        return create(config, CloudgMetrics.none());
    }

    /**
     * As {@link #create(CloudGConfig)}, with the governor's metrics in {@code metrics}: its listener, its
     * state gauges, and the latency of its Redis round trips.
     */
    public static Governor create(CloudGConfig config, CloudgMetrics metrics) {
        requireShared(config);
        return Governors.create(config.ratelimit(), System::getenv, TimeSource.system(), metrics);
    }
}
