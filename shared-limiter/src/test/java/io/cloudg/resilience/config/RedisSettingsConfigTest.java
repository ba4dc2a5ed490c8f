package io.cloudg.resilience.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisSettingsConfigTest {

    @Test
    void memoryIsTheDefaultBackend() {
        RateLimitConfig c = RateLimitConfig.defaults();
        assertThat(c.backend()).isEqualTo(RateLimitConfig.Backend.MEMORY);
        assertThat(c.redis()).isEqualTo(RedisSettings.DEFAULTS);
        assertThat(c.redis().keyPrefix()).isEqualTo("cloudg");
        assertThat(c.redis().learnedTtlHours()).isEqualTo(24.0);
        assertThat(c.redis().fleetSizeHint()).isEqualTo(1);
    }

    @Test
    void redisBlockLoadsFromYaml() {
        RateLimitConfig c = RateLimitConfig.fromYaml(String.join("\n",
                "ratelimit:",
                "  backend: redis",
                "  redis:",
                "    url: rediss://cache.internal:6380/2",
                "    key_prefix: prod-estate",
                "    fleet_size_hint: 8",
                "    learned_ttl_hours: 48",
                "    timeout_ms: 500",
                "    degrade_after_seconds: 2.5",
                "    presumed_degraded_seconds: 120",
                "    pool_size: 32",
                "    username: cloudg",
                "    password_env: MY_REDIS_SECRET"));
        RedisSettings r = c.redis();
        assertThat(c.backend()).isEqualTo(RateLimitConfig.Backend.REDIS);
        assertThat(r.addresses()).containsExactly("rediss://cache.internal:6380");
        assertThat(r.tls()).isTrue();
        assertThat(r.database()).isEqualTo(2);
        assertThat(r.keyPrefix()).isEqualTo("prod-estate");
        assertThat(r.fleetSizeHint()).isEqualTo(8);
        assertThat(r.learnedTtlHours()).isEqualTo(48.0);
        assertThat(r.timeoutMs()).isEqualTo(500);
        assertThat(r.degradeAfterSeconds()).isEqualTo(2.5);
        assertThat(RedisSettings.DEFAULTS.degradeAfterSeconds()).isEqualTo(5.0);
        assertThat(r.presumedDegradedSeconds()).isEqualTo(120.0);
        assertThat(RedisSettings.DEFAULTS.presumedDegradedSeconds()).isEqualTo(300.0);
        assertThat(RedisSettings.builder().presumedDegradedSeconds(0.0).build().presumedDegradedSeconds())
                .as("0: nobody presumed degraded").isZero();
        assertThat(r.poolSize()).isEqualTo(32);
        assertThat(r.resolvedUsername()).isEqualTo("cloudg");
        assertThat(r.resolvedPassword(Map.of("MY_REDIS_SECRET", "s3cret")::get)).isEqualTo("s3cret");
        assertThatThrownBy(() -> r.resolvedPassword(k -> null)).as("a variable named but not set is refused")
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.redis.password_env must be the name of a set environment variable, but was "
                        + "\"MY_REDIS_SECRET\"");
        assertThat(RedisSettings.DEFAULTS.resolvedPassword(k -> null)).as("the default variable is optional").isNull();
        assertThat(r.passwordSource(Map.of("MY_REDIS_SECRET", "s3cret")::get))
                .isEqualTo("$MY_REDIS_SECRET (ratelimit.redis.password_env)");
    }

    @Test
    void credentialsInTheUrlAreUsedButNeverPrinted() {
        RedisSettings r = RedisSettings.builder().url("redis://ops:p%40ss@10.1.2.3:6379").build();
        assertThat(r.resolvedUsername()).isEqualTo("ops");
        assertThat(r.resolvedPassword(k -> "from-env")).isEqualTo("p@ss");
        assertThat(r.redactedUrl()).isEqualTo("redis://10.1.2.3:6379");
        assertThat(r.toString()).doesNotContain("p%40ss").doesNotContain("p@ss");
        assertThat(RedisSettings.builder().password("hunter2").build().toString()).doesNotContain("hunter2");
        assertThat(r.addresses()).containsExactly("redis://10.1.2.3:6379");
    }

    @Test
    void errorsNameTheKeyAndTheValue() {
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  backend: etcd"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.backend must be memory or redis, but was \"etcd\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    url: http://x:1"))
                .hasMessage("ratelimit.redis.url must be a redis:// or rediss:// URL, but was \"http://x:1\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    key_prefix: \"a:b\""))
                .hasMessage("ratelimit.redis.key_prefix must be 1-64 characters of [A-Za-z0-9._-], but was \"a:b\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    fleet_size_hint: 0"))
                .hasMessage("ratelimit.redis.fleet_size_hint must be an integer >= 1, but was 0");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    degrade_after_seconds: -1"))
                .hasMessage("ratelimit.redis.degrade_after_seconds must be a number >= 0, but was -1");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    presumed_degraded_seconds: 10"))
                .hasMessage("ratelimit.redis.presumed_degraded_seconds must be 0 or a number >= 20 (the heartbeat's"
                        + " lapse), but was 10");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    presumed_degraded_seconds: -1"))
                .hasMessage("ratelimit.redis.presumed_degraded_seconds must be 0 or a number >= 20 (the heartbeat's"
                        + " lapse), but was -1");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    timeout_ms: fast"))
                .hasMessage("ratelimit.redis.timeout_ms must be an integer, but was \"fast\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    mode: sentinel"))
                .hasMessage("ratelimit.redis.sentinel_master: is required when mode is sentinel");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit:\n  redis:\n    url: 7"))
                .hasMessage("ratelimit.redis.url must be a string, but was 7");
    }

    @Test
    void unknownRedisKeysWarn() {
        List<String> warnings = new ArrayList<>();
        RateLimitConfig.fromTree(new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(
                Map.of("redis", Map.of("urll", "redis://x:1"))), warnings);
        assertThat(warnings).containsExactly("Unknown config key ratelimit.redis.urll is ignored");
    }

    @Test
    void cliOverrideSwitchesTheBackendAndKeepsTheLimits() {
        RateLimitConfig base = RateLimitConfig.builder().aws(a -> a.maxRps(8.0)).build();
        RateLimitConfig c = base.withBackend(RateLimitConfig.Backend.REDIS, base.redis().withUrl("redis://r:6390"));
        assertThat(c.backend()).isEqualTo(RateLimitConfig.Backend.REDIS);
        assertThat(c.redis().addresses()).containsExactly("redis://r:6390");
        assertThat(c.provider("aws").defaultLeaf().maxRps()).isEqualTo(8.0);
    }
}
