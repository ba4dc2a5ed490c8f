package io.cloudg.resilience.redis;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.memory.LearnedRatesFile;
import io.cloudg.resilience.memory.LearningStateStore;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.redisson.api.RedissonClient;

/**
 * Builds the state store {@code ratelimit.backend} asks for, the one path every command takes: {@code memory}
 * is an {@link InMemoryStateStore}, which keeps the rates it learned in {@code ratelimit.state_file} between
 * runs ({@link LearningStateStore}) unless that is {@code none}; {@code redis} is a {@link RedisStateStore} (Redis TIME, learned TTL, key
 * prefix, pipelining from {@code ratelimit.redis}) inside a {@link DegradingStateStore} that falls back to
 * local pacing at its share of every limit once Redis has been out of reach for {@code degrade_after_seconds}.
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
            InMemoryStateStore memory = new InMemoryStateStore(time);
            String file = config.stateFile();
            if (RateLimitConfig.NO_STATE_FILE.equals(file)) {
                return memory;
            }
            Path path = file == null ? LearnedRatesFile.defaultLocation(env) : Path.of(file);
            return new LearningStateStore(memory, new LearnedRatesFile(path), config.learnedTtlHours());
        }
        RedisSettings s = config.redis();
        s.requireUrl();
        return degrading(s, redisStore(s, RedisClients.create(s, env), true, time), time);
    }

    static DegradingStateStore degrading(RedisSettings s, RedisStateStore redis, TimeSource time) {
        return new DegradingStateStore(redis, redis::ping, redis::liveProcesses, new InMemoryStateStore(time),
                s.fleetSizeHint(), time, outagePolicy(s), "redis");
    }

    /** When Redis counts as lost ({@code degrade_after_seconds}; 0: at the first failure) and how often it is probed. */
    static Outages.Policy outagePolicy(RedisSettings s) {
        long probe = (long) (s.probeIntervalSeconds() * 1e9);
        return s.degradeAfterSeconds() == 0 ? Outages.Policy.immediate(probe)
                : new Outages.Policy(Outages.Policy.DEFAULT_FAILURES, (long) (s.degradeAfterSeconds() * 1e9), probe);
    }

    /** A bare Redis store (no fallback) on {@code client}, configured from {@code s}, on the system clock. */
    public static RedisStateStore redisStore(RedisSettings s, RedissonClient client, boolean ownsClient) {
        return redisStore(s, client, ownsClient, TimeSource.system());
    }

    /** As {@link #redisStore(RedisSettings, RedissonClient, boolean)}, its own timing on {@code time}. */
    public static RedisStateStore redisStore(RedisSettings s, RedissonClient client, boolean ownsClient, TimeSource time) {
        return RedisStateStore.builder(client).ownsClient(ownsClient).keyPrefix(s.keyPrefix()).time(time)
                .learnedTtl(Duration.ofMillis((long) (s.learnedTtlHours() * 3_600_000L)))
                .pipelineMaxBatch(s.pipelineMaxBatch())
                .callTimeout(Duration.ofMillis(2L * s.timeoutMs() + s.connectTimeoutMs()))
                .describe(String.join(",", s.addresses())).build();
    }

    /** A governor for {@code config} whose state lives where {@code ratelimit.backend} says. */
    public static Governor governor(RateLimitConfig config) {
        return governor(config, System::getenv, TimeSource.system());
    }

    /**
     * A governor for {@code config} on {@code time}, its state where {@code ratelimit.backend} says: what every
     * command that maps builds (embedded maps, the MCP server, workers, the coordinator).
     *
     * @throws io.cloudg.resilience.config.ConfigException for a redis backend without {@code ratelimit.redis.url}
     */
    public static Governor governor(RateLimitConfig config, Function<String, String> env, TimeSource time) {
        return governor(config, env, time, UnaryOperator.identity(), GovernorListener.NONE);
    }

    /**
     * As {@link #governor(RateLimitConfig, Function, TimeSource)}, observed: the store, once known to be
     * reachable, passes through {@code decorate} (metrics time its round trips there) and the governor tells
     * {@code listener} what its calls did.
     */
    public static Governor governor(RateLimitConfig config, Function<String, String> env, TimeSource time,
                                    UnaryOperator<StateStore> decorate, GovernorListener listener) {
        StateStore store = config.backend() == RateLimitConfig.Backend.REDIS ? reachableRedis(config.redis(), env, time)
                : create(config, env, time);
        return Governor.builder().config(config).time(time).store(decorate.apply(store)).listener(listener).build();
    }

    /**
     * A run starts only with the Redis it was told to use: one that cannot be used at start (a wrong URL or
     * password, an untrusted certificate, a closed port) is a start-up failure naming why
     * ({@link RedisPreflight}), not a silent fallback. Then one PING through the pool the scripts use. (Losing
     * Redis later in the run degrades instead.)
     */
    private static StateStore reachableRedis(RedisSettings s, Function<String, String> env, TimeSource time) {
        s.requireUrl();
        RedisPreflight.check(s, env);
        RedisStateStore redis = redisStore(s, RedisClients.create(s, env), true, time);
        Throwable failure = redis.pingFailure();
        if (failure != null) {
            redis.close();
            throw RedisPreflight.failure(s, String.join(",", s.addresses()), failure, env);
        }
        try {
            redis.announce(); // the live processes are known before a first outage could need them
        } catch (RuntimeException e) {
            // counted on the first admissions instead; losing Redis now degrades as later would
        }
        return degrading(s, redis, time);
    }

    /** What {@code ratelimit.backend} ran as, for a run's {@code governor} field: {@code memory} or {@code redis}. */
    public static String backendName(RateLimitConfig config) {
        return config.backend().name().toLowerCase(java.util.Locale.ROOT);
    }
}
