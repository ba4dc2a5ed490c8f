package io.cloudg.resilience.redis;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.util.function.Function;
import org.redisson.api.RedissonClient;

/**
 * Builds the state store {@code ratelimit.backend} asks for: {@code memory} is an
 * {@link InMemoryStateStore}; {@code redis} is a {@link RedisStateStore} (Redis TIME, learned TTL, key
 * prefix, pipelining from {@code ratelimit.redis}) inside a {@link DegradingStateStore} that falls back to
 * local pacing at {@code 1/fleet_size_hint} while Redis is out of reach.
 *
 * <pre>{@code
 * RateLimitConfig config = RateLimitConfig.fromYaml(yaml);          // ratelimit.backend: redis
 * Governor governor = StateStores.governor(config);                  // what a worker installs
 * Resilience.install(governor);
 * }</pre>
 */
public final class StateStores {
    private StateStores() {
    }

    /** The store for {@code config}, on the system clock, reading secrets from the environment. */
    public static StateStore create(RateLimitConfig config) {
        return create(config, System::getenv, TimeSource.system());
    }

    public static StateStore create(RateLimitConfig config, Function<String, String> env, TimeSource time) {
        if (config.backend() == RateLimitConfig.Backend.MEMORY) {
            return new InMemoryStateStore(time);
        }
        RedisSettings s = config.redis();
        RedisStateStore redis = redisStore(s, RedisClients.create(s, env), true);
        return new DegradingStateStore(redis, redis::ping, new InMemoryStateStore(time), s.fleetSizeHint(), time,
                (long) (s.probeIntervalSeconds() * 1e9), "redis");
    }

    /** A bare Redis store (no fallback) on {@code client}, configured from {@code s}. */
    public static RedisStateStore redisStore(RedisSettings s, RedissonClient client, boolean ownsClient) {
        return RedisStateStore.builder(client).ownsClient(ownsClient).keyPrefix(s.keyPrefix())
                .learnedTtl(Duration.ofMillis((long) (s.learnedTtlHours() * 3_600_000L)))
                .pipelineMaxBatch(s.pipelineMaxBatch())
                .callTimeout(Duration.ofMillis(2L * s.timeoutMs() + s.connectTimeoutMs()))
                .describe(String.join(",", s.addresses())).build();
    }

    /** A governor for {@code config} whose state lives where {@code ratelimit.backend} says. */
    public static Governor governor(RateLimitConfig config) {
        return Governor.builder().config(config).store(create(config)).build();
    }
}
