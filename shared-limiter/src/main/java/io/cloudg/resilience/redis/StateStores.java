package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.util.function.Function;
import org.redisson.api.RedissonClient;

/**
 * Builds the Redis state stores ({@code ratelimit.redis}): a {@link RedisStateStore} (Redis TIME, learned TTL,
 * key prefix, pipelining) inside a {@link DegradingStateStore} that falls back to local pacing at
 * {@code 1/fleet_size_hint} while Redis is out of reach. Which store a governor gets ({@code ratelimit.backend})
 * and the governor itself are the engine's {@code io.cloudg.Governors}, the one factory every command uses.
 *
 * <pre>{@code
 * StateStore store = StateStores.reachable(config.redis(), System::getenv, TimeSource.system());
 * Governor governor = Governor.builder().config(config).store(store).build();
 * }</pre>
 */
public final class StateStores {
    private StateStores() {
    }

    /**
     * The store a fleet shares, used only if it can be used now: one that cannot at start (a wrong URL or
     * password, an untrusted certificate, a closed port) is a start-up failure naming why
     * ({@link RedisPreflight}), not a silent fallback. Then one PING through the pool the scripts use. (Losing
     * Redis later in the run degrades instead.)
     *
     * @throws io.cloudg.resilience.config.ConfigException without {@code ratelimit.redis.url}
     * @throws io.cloudg.resilience.spi.StateStoreUnavailableException naming why Redis cannot be used
     */
    public static StateStore reachable(RedisSettings s, Function<String, String> env, TimeSource time) {
        s.requireUrl();
        RedisPreflight.check(s, env);
        RedisStateStore redis = redisStore(s, RedisClients.create(s, env), true);
        Throwable failure = redis.pingFailure();
        if (failure != null) {
            redis.close();
            throw RedisPreflight.failure(s, String.join(",", s.addresses()), failure, env);
        }
        return degrading(s, redis, time);
    }

    /** As {@link #reachable}, without the check at start: a Redis out of reach makes the store start degraded. */
    static StateStore degrading(RedisSettings s, Function<String, String> env, TimeSource time) {
        s.requireUrl();
        return degrading(s, redisStore(s, RedisClients.create(s, env), true), time);
    }

    private static StateStore degrading(RedisSettings s, RedisStateStore redis, TimeSource time) {
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
}
