package io.cloudg.fleet;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.Resilience;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.GovernorMetrics;
import io.cloudg.metrics.TimedStateStore;
import io.cloudg.resilience.redis.StateStores;

/**
 * The governor of a fleet process: the Redis-backed one, so that the coordinator and every worker draw
 * from the same buckets; made the process-wide governor. A fleet on the in-memory governor would let
 * each worker spend the whole quota, so it is refused.
 */
public final class FleetGovernor {
    private FleetGovernor() {
    }

    /** {@code config} with {@code ratelimit.backend: redis} at {@code redisUrl} (the CLI's {@code --redis}); null keeps it. */
    public static CloudGConfig withRedis(CloudGConfig config, String redisUrl) {
        if (redisUrl == null) {
            return config;
        }
        RateLimitConfig r = config.ratelimit();
        return config.toBuilder().ratelimit(r.withBackend(RateLimitConfig.Backend.REDIS, r.redis().withUrl(redisUrl))).build();
    }

    public static Governor install(CloudGConfig config) {
        return install(config, CloudgMetrics.none());
    }

    /**
     * As {@link #install(CloudGConfig)}, with the governor's metrics in {@code metrics}: its listener, its
     * state gauges, and the latency of its Redis round trips.
     */
    public static Governor install(CloudGConfig config, CloudgMetrics metrics) {
        if (config.ratelimit().backend() != RateLimitConfig.Backend.REDIS) {
            throw ConfigErrors.invalid("ratelimit.backend", "a fleet shares its governor through Redis: pass --redis URL "
                    + "or set ratelimit.backend: redis with ratelimit.redis.url");
        }
        RateLimitConfig rl = config.ratelimit();
        Governor g = GovernorMetrics.build(Governor.builder().config(rl)
                .store(TimedStateStore.wrap(StateStores.create(rl), metrics)), metrics);
        Resilience.install(g);
        return g;
    }
}
