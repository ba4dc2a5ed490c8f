package io.cloudg;

import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.GovernorMetrics;
import io.cloudg.metrics.TimedStateStore;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.memory.LearnedRatesFile;
import io.cloudg.resilience.memory.LearningStateStore;
import io.cloudg.resilience.redis.StateStores;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The one way a governor is built, by every command that maps (an embedded map, the MCP server, a fleet's
 * coordinator and workers) and by embedders: its limits from the {@code ratelimit} block, its state where
 * {@code ratelimit.backend} says, its metrics when they are on.
 * <ul>
 *   <li>{@code memory}: an {@link InMemoryStateStore} on the process's clock that keeps the rates it learned
 *       in {@code ratelimit.state_file} between runs ({@link LearningStateStore}) unless that is {@code none};</li>
 *   <li>{@code redis}: the Redis store a fleet shares ({@link StateStores#reachable}: a Redis that cannot be
 *       used at start fails the start naming why; one lost later degrades to local pacing), its round trips
 *       timed ({@link TimedStateStore}).</li>
 * </ul>
 *
 * <pre>{@code
 * CloudGConfig config = CloudGConfig.load(Path.of("cloudg.yaml"));
 * try (Governor governor = Governors.create(config.ratelimit())) {
 *     InventoryResult result = new InventoryMapper(config, governor).mapInventory();
 * }
 * }</pre>
 */
public final class Governors {
    private Governors() {
    }

    /** The governor for {@code config} on the system clock, secrets from the environment, without metrics. */
    public static Governor create(RateLimitConfig config) {
        return create(config, System::getenv, TimeSource.system(), CloudgMetrics.none());
    }

    /**
     * The governor for {@code config} on {@code time}, secrets read through {@code env}, its metrics in
     * {@code metrics}: its listener, its state gauges and, on Redis, the latency of its round trips.
     *
     * @throws io.cloudg.resilience.config.ConfigException for a redis backend without {@code ratelimit.redis.url}
     * @throws io.cloudg.resilience.spi.StateStoreUnavailableException naming why, for a Redis that cannot be used
     */
    public static Governor create(RateLimitConfig config, Function<String, String> env, TimeSource time,
                                  CloudgMetrics metrics) {
        StateStore store = config.backend() == RateLimitConfig.Backend.REDIS
                ? TimedStateStore.wrap(StateStores.reachable(config.redis(), env, time), metrics)
                : memory(config, env, time);
        return build(Governor.builder().config(config).time(time).store(store), metrics);
    }

    /**
     * The governor {@code b} describes (a test's store or clock, a benchmark's), observed in {@code metrics}:
     * the metrics listener and the state gauges (nothing is added when {@code metrics} records nothing).
     */
    public static Governor build(Governor.Builder b, CloudgMetrics metrics) {
        Governor g = b.listener(GovernorMetrics.listenerFor(metrics)).build();
        GovernorMetrics.watch(metrics, g);
        return g;
    }

    /** {@code memory}'s store: learned rates kept in {@code ratelimit.state_file} (its default place unless set), or not at all with {@code none}. */
    static StateStore memory(RateLimitConfig config, Function<String, String> env, TimeSource time) {
        InMemoryStateStore memory = new InMemoryStateStore(time);
        String file = config.stateFile();
        if (RateLimitConfig.NO_STATE_FILE.equals(file)) {
            return memory;
        }
        Path path = file == null ? LearnedRatesFile.defaultLocation(env) : Path.of(file);
        return new LearningStateStore(memory, new LearnedRatesFile(path), config.learnedTtlHours());
    }
}
