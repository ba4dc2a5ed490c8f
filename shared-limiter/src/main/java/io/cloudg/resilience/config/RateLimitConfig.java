package io.cloudg.resilience.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code ratelimit} block: global switches, where the state lives, and one
 * {@link ProviderLimits} per provider. Immutable; build it with {@link #builder()} or load it with
 * {@link #fromYaml(String)} / {@link #fromTree(JsonNode, List)}. {@link #defaults()} is the built-in
 * configuration (what a null {@code ratelimit} means).
 */
public final class RateLimitConfig {
    /** The providers cloudg knows, in report order. */
    public static final List<String> PROVIDERS = List.of(BuiltInRates.AWS, BuiltInRates.AZURE, BuiltInRates.GCP);

    private static final RateLimitConfig DEFAULTS = builder().build();

    /** Where the governor keeps its state ({@code ratelimit.backend}). */
    public enum Backend {
        /** One process: {@code InMemoryStateStore} (the default). */
        MEMORY,
        /** A fleet: {@code RedisStateStore} with the {@code ratelimit.redis} block, degrading to memory. */
        REDIS
    }

    private final boolean enabled;
    private final Map<String, ProviderLimits> providers;
    private final Backend backend;
    private final RedisSettings redis;
    private final String stateFile;
    private final double learnedTtlHours;
    private final int maxCallsInFlight;

    /**
     * {@code ratelimit.max_calls_in_flight}'s default: far above what a 2-core process can keep busy at 100 ms a
     * call (about 0.5 ms of CPU a call: some 4,000 calls a second, 400 in flight), so the CPU, the quotas and the
     * bulkheads bound a map, not this; low enough that the calls' sockets and stacks fit the default heap.
     */
    public static final int DEFAULT_MAX_CALLS_IN_FLIGHT = 4096;

    /** {@code ratelimit.state_file: none}: the in-memory governor keeps nothing between runs. */
    public static final String NO_STATE_FILE = "none";

    private RateLimitConfig(Builder b) {
        this.enabled = b.enabled == null || b.enabled;
        this.backend = b.backend;
        this.redis = b.redis;
        this.stateFile = b.stateFile;
        this.learnedTtlHours = ConfigErrors.positive("ratelimit.learned_ttl_hours", b.learnedTtlHours);
        if (b.maxCallsInFlight < 1) {
            throw ConfigErrors.mustBe("ratelimit.max_calls_in_flight", "an integer >= 1", b.maxCallsInFlight);
        }
        this.maxCallsInFlight = b.maxCallsInFlight;
        Map<String, ProviderLimits> m = new LinkedHashMap<>();
        for (String p : PROVIDERS) {
            ProviderLimits.Builder pb = b.providers.get(p);
            m.put(p, pb == null ? ProviderLimits.defaults(p) : pb.build());
        }
        this.providers = Collections.unmodifiableMap(m);
    }

    private RateLimitConfig(RateLimitConfig base, Backend backend, RedisSettings redis) {
        this.enabled = base.enabled;
        this.providers = base.providers;
        this.backend = backend;
        this.redis = redis;
        this.stateFile = base.stateFile;
        this.learnedTtlHours = base.learnedTtlHours;
        this.maxCallsInFlight = base.maxCallsInFlight;
    }

    private RateLimitConfig(RateLimitConfig base, int maxCallsInFlight) {
        this.enabled = base.enabled;
        this.providers = base.providers;
        this.backend = base.backend;
        this.redis = base.redis;
        this.stateFile = base.stateFile;
        this.learnedTtlHours = base.learnedTtlHours;
        if (maxCallsInFlight < 1) {
            throw ConfigErrors.mustBe("ratelimit.max_calls_in_flight", "an integer >= 1", maxCallsInFlight);
        }
        this.maxCallsInFlight = maxCallsInFlight;
    }

    public static RateLimitConfig defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Loads a YAML document whose top level holds a {@code ratelimit} mapping (the rest is ignored: it
     * belongs to other parts of the cloudg configuration). Unknown keys under {@code ratelimit} are logged
     * and ignored; wrong types and ranges throw {@link ConfigException}.
     */
    public static RateLimitConfig fromYaml(String yaml) {
        return RateLimitConfigLoader.fromYaml(yaml, new ArrayList<>());
    }

    /**
     * Loads a {@code ratelimit} node (null or a YAML null means the built-in configuration). Warnings
     * (unknown keys) are logged and appended to {@code warnings}.
     */
    public static RateLimitConfig fromTree(JsonNode ratelimit, List<String> warnings) {
        return RateLimitConfigLoader.load(ratelimit, warnings);
    }

    /** Loads the {@code ratelimit} section of a configuration document; unknown keys become its warnings. */
    public static RateLimitConfig from(ConfigNode ratelimit) {
        return ratelimit.isEmpty() ? defaults() : RateLimitConfigLoader.load(ratelimit);
    }

    /**
     * Every key of the {@code ratelimit} section as a dotted path, with {@code <provider>} and {@code <service>}
     * standing for the names a user writes there (the configuration reference is checked against it).
     */
    public static java.util.SortedSet<String> documentedKeys() {
        return RateLimitConfigLoader.documentedKeys();
    }

    /** {@code ratelimit.enabled}: false removes pacing, breakers and cloudg-level retries for every provider. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether the governor acts on calls of {@code provider}: globally and for that provider enabled. */
    public boolean enabled(String provider) {
        return enabled && provider(provider).enabled();
    }

    /** {@code ratelimit.backend}: memory (default) or redis. */
    public Backend backend() {
        return backend;
    }

    /** {@code ratelimit.redis}: read when the backend is redis; the defaults otherwise. */
    public RedisSettings redis() {
        return redis;
    }

    /**
     * {@code ratelimit.state_file}: where the in-memory governor keeps the rates it learned between runs;
     * null for the default ({@code $XDG_CACHE_HOME/cloudg/learned-rates.json}, else
     * {@code ~/.cache/cloudg/learned-rates.json}), {@link #NO_STATE_FILE} for nowhere.
     */
    public String stateFile() {
        return stateFile;
    }

    /** {@code ratelimit.learned_ttl_hours}: how long a learned rate in the state file is believed (default 24). */
    public double learnedTtlHours() {
        return learnedTtlHours;
    }

    /**
     * {@code ratelimit.max_calls_in_flight}: the most calls this process has in flight at once, every provider and
     * account together (default {@value #DEFAULT_MAX_CALLS_IN_FLIGHT}). A call holds its place from its bulkhead
     * slot to the slot's release (on AWS the whole call, SDK retries included; on Azure one HTTP attempt; on GCP
     * a whole Cloud Asset listing). Per process, whatever the backend: a fleet's workers each have their own.
     */
    public int maxCallsInFlight() {
        return maxCallsInFlight;
    }

    /** This configuration with another {@link #maxCallsInFlight()} (the CLI's {@code --max-calls-in-flight N}). */
    public RateLimitConfig withMaxCallsInFlight(int n) {
        return new RateLimitConfig(this, n);
    }

    /** This configuration with another backend (the CLI's {@code --redis URL} sets redis and the URL). */
    public RateLimitConfig withBackend(Backend newBackend, RedisSettings newRedis) {
        if (newBackend == null || newRedis == null) {
            throw ConfigErrors.mustBe("ratelimit.backend", "memory or redis, with a redis block", newBackend);
        }
        return new RateLimitConfig(this, newBackend, newRedis);
    }

    /**
     * This configuration on the Redis at {@code url} (the CLI's {@code --redis URL}: backend redis, the rest
     * of the {@code ratelimit.redis} block kept); null keeps it as it is.
     */
    public RateLimitConfig withRedisUrl(String url) {
        return url == null ? this : withBackend(Backend.REDIS, redis.withUrl(url));
    }

    /** The limits of {@code provider}; throws for a provider cloudg does not know. */
    public ProviderLimits provider(String provider) {
        ProviderLimits p = providers.get(provider);
        if (p == null) {
            throw ConfigErrors.mustBe("provider", "one of " + String.join(", ", PROVIDERS), provider);
        }
        return p;
    }

    public Map<String, ProviderLimits> providers() {
        return providers;
    }

    @Override
    public String toString() {
        return "RateLimitConfig{enabled=" + enabled + ", max_calls_in_flight=" + maxCallsInFlight + ", backend=" + backend
                + (backend == Backend.MEMORY ? ", state_file=" + (stateFile == null ? "default" : stateFile) : "")
                + (backend == Backend.REDIS ? ", redis=" + redis : "") + ", providers="
                + providers.values() + "}";
    }

    public static final class Builder {
        private Boolean enabled;
        private final Map<String, ProviderLimits.Builder> providers = new LinkedHashMap<>();
        private Backend backend = Backend.MEMORY;
        private RedisSettings redis = RedisSettings.DEFAULTS;
        private String stateFile;
        private double learnedTtlHours = 24;
        private int maxCallsInFlight = DEFAULT_MAX_CALLS_IN_FLIGHT;

        /** {@code ratelimit.max_calls_in_flight}; null keeps the default. */
        public Builder maxCallsInFlight(Integer v) {
            if (v != null) {
                maxCallsInFlight = v;
            }
            return this;
        }

        /** {@code ratelimit.state_file}: a path, {@code none}, or null for the default location. */
        public Builder stateFile(String v) {
            if (v != null && v.isBlank()) {
                throw ConfigErrors.mustBe("ratelimit.state_file", "a file path or none", v);
            }
            stateFile = v == null ? null : v.trim();
            return this;
        }

        public Builder learnedTtlHours(Double v) {
            if (v != null) {
                learnedTtlHours = v;
            }
            return this;
        }

        public Builder backend(Backend v) {
            backend = v == null ? Backend.MEMORY : v;
            return this;
        }

        public Builder redis(RedisSettings v) {
            redis = v == null ? RedisSettings.DEFAULTS : v;
            return this;
        }

        public Builder enabled(Boolean v) {
            enabled = v;
            return this;
        }

        /** Edits the limits of {@code provider} (aws, azure or gcp), starting from the built-ins. */
        public Builder provider(String provider, Consumer<ProviderLimits.Builder> edit) {
            edit.accept(providers.computeIfAbsent(provider, ProviderLimits::builder));
            return this;
        }

        public Builder aws(Consumer<ProviderLimits.Builder> edit) {
            return provider(BuiltInRates.AWS, edit);
        }

        public Builder azure(Consumer<ProviderLimits.Builder> edit) {
            return provider(BuiltInRates.AZURE, edit);
        }

        public Builder gcp(Consumer<ProviderLimits.Builder> edit) {
            return provider(BuiltInRates.GCP, edit);
        }

        public RateLimitConfig build() {
            return new RateLimitConfig(this);
        }
    }
}
