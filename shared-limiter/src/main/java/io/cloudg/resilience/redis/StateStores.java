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
 * key prefix, pipelining) inside a {@link DegradingStateStore} that falls back to local pacing at its share
 * of every limit once Redis has been out of reach for {@code degrade_after_seconds}. Which store a governor
 * gets ({@code ratelimit.backend}) and the governor itself are the engine's {@code io.cloudg.Governors}, the
 * one factory every command uses.
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
        RedisStateStore redis = redisStore(s, RedisClients.create(s, env), true, time);
        Throwable failure = redis.pingFailure();
        for (int tries = 1; failure != null && RedisPreflight.timedOut(failure) && tries < RedisPreflight.SILENT_TRIES; tries++) {
            failure = redis.pingFailure(); // Redis answered the preflight: a slow first exchange of the pool is asked again
        }
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

    /** As {@link #reachable}, without the check at start: a Redis out of reach makes the store start degraded. */
    static StateStore degrading(RedisSettings s, Function<String, String> env, TimeSource time) {
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

    /**
     * When a silent process counts as missing (the heartbeat's lapse) and as gone ({@code
     * presumed_degraded_seconds}; 0: at once, so nobody is ever presumed degraded).
     */
    static Presence.Policy presencePolicy(RedisSettings s) {
        long lapse = Presence.Policy.DEFAULT_LAPSE_NANOS;
        return new Presence.Policy(lapse, Math.max(lapse, (long) (s.presumedDegradedSeconds() * 1e9)));
    }

    /** A bare Redis store (no fallback) on {@code client}, configured from {@code s}, on the system clock. */
    public static RedisStateStore redisStore(RedisSettings s, RedissonClient client, boolean ownsClient) {
        return redisStore(s, client, ownsClient, TimeSource.system());
    }

    /** As {@link #redisStore(RedisSettings, RedissonClient, boolean)}, its own timing on {@code time}. */
    public static RedisStateStore redisStore(RedisSettings s, RedissonClient client, boolean ownsClient, TimeSource time) {
        return RedisStateStore.builder(client).ownsClient(ownsClient).keyPrefix(s.keyPrefix()).time(time)
                .fleetSizeHint(s.fleetSizeHint()).presence(presencePolicy(s))
                .learnedTtl(Duration.ofMillis((long) (s.learnedTtlHours() * 3_600_000L)))
                .pipelineMaxBatch(s.pipelineMaxBatch())
                .callTimeout(Duration.ofMillis(2L * s.timeoutMs() + s.connectTimeoutMs()))
                .describe(String.join(",", s.addresses())).build();
    }
}
