package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.resilience.testkit.Poll;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Redis that cannot be used at start says why, at once, naming the setting: against a real redis-server
 * that requires a password, a closed port and a host name that does not resolve.
 */
class RedisPreflightTest {
    static final Function<String, String> NO_ENV = k -> null;
    static TestRedis redis;

    @BeforeAll
    static void start() {
        redis = TestRedis.embedded("requirepass s3cret");
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
    }

    static RedisSettings.Builder at(String url) {
        return RedisSettings.builder().url(url).connectTimeoutMs(1000).timeoutMs(500);
    }

    static String where() {
        return "redis://127.0.0.1:" + redis.port();
    }

    @Test
    void theRightPasswordPasses() {
        RedisPreflight.check(at(where()).build(), Map.of("CLOUDG_REDIS_PASSWORD", "s3cret")::get);
        RedisPreflight.check(at("redis://:s3cret@127.0.0.1:" + redis.port()).build(), NO_ENV);
        RedisPreflight.check(at(where()).passwordEnv("MY_PW").build(), Map.of("MY_PW", "s3cret")::get);
    }

    @Test
    void aWrongPasswordIsNamedWithWhereItCameFrom() {
        assertThatThrownBy(() -> RedisPreflight.check(at(where()).build(), Map.of("CLOUDG_REDIS_PASSWORD", "nope")::get))
                .isInstanceOf(StateStoreUnavailableException.class)
                .hasMessage("Redis at " + where() + " refused the password from $CLOUDG_REDIS_PASSWORD "
                        + "(ratelimit.redis.password_env) (WRONGPASS invalid username-password pair or user is disabled)");
        assertThatThrownBy(() -> RedisPreflight.check(at("redis://:nope@127.0.0.1:" + redis.port()).build(), NO_ENV))
                .hasMessageStartingWith("Redis at " + where() + " refused the password from the URL "
                        + "(ratelimit.redis.url or --redis) (WRONGPASS")
                .hasMessageNotContaining("nope");
        assertThatThrownBy(() -> RedisPreflight.check(at(where()).username("ops").password("nope").build(), NO_ENV))
                .hasMessageStartingWith("Redis at " + where() + " refused user ops with the password from "
                        + "ratelimit.redis.password (WRONGPASS");
    }

    @Test
    void noPasswordWhereOneIsRequiredSaysWhereToPutIt() {
        assertThatThrownBy(() -> RedisPreflight.check(at(where()).build(), NO_ENV))
                .hasMessage("Redis at " + where() + " requires a password, and none is set: put it in "
                        + "$CLOUDG_REDIS_PASSWORD (or name another variable in ratelimit.redis.password_env)");
    }

    @Test
    void aPasswordVariableThatIsNotSetIsRefusedBeforeConnecting() {
        assertThatThrownBy(() -> RedisPreflight.check(at("redis://127.0.0.1:1").passwordEnv("CLOUDG_TEST_UNSET_PW").build(),
                Map.of("CLOUDG_TEST_UNSET_PW", "")::get))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.redis.password_env must be the name of a set environment variable, but was "
                        + "\"CLOUDG_TEST_UNSET_PW\"");
    }

    @Test
    void anUnknownHostAndAClosedPortAreTold() {
        assertThatThrownBy(() -> RedisPreflight.check(at("redis://no-such-host.invalid:6379").build(), NO_ENV))
                .hasMessage("cannot reach Redis at redis://no-such-host.invalid:6379: unknown host no-such-host.invalid "
                        + "(ratelimit.redis.url or --redis)");
        int closed = TestRedis.freePort();
        assertThatThrownBy(() -> RedisPreflight.check(at("redis://127.0.0.1:" + closed).build(), NO_ENV))
                .hasMessage("cannot reach Redis at redis://127.0.0.1:" + closed + ": connection refused "
                        + "(ratelimit.redis.url or --redis)");
    }

    @Test
    void aServerSilentOnTheFirstConnectionIsAskedAgainOnANewOne() throws Exception {
        Map<String, String> env = Map.of("CLOUDG_REDIS_PASSWORD", "s3cret");
        try (StallingProxy proxy = new StallingProxy("127.0.0.1", redis.port())) {
            proxy.stall();
            CompletableFuture<Void> check = CompletableFuture.runAsync(() ->
                    RedisPreflight.check(at("redis://127.0.0.1:" + proxy.port()).build(), env::get));
            Poll.until("a second connection", Duration.ofSeconds(30), () -> proxy.connections() >= 2 || check.isDone());
            proxy.flow();
            check.get(30, TimeUnit.SECONDS); // passes: the later connection was answered
            assertThat(proxy.connections()).isBetween(2, RedisPreflight.SILENT_TRIES);
        }
    }

    @Test
    void aServerThatStaysSilentIsToldWithHowOftenItWasAsked() throws Exception {
        try (StallingProxy proxy = new StallingProxy("127.0.0.1", redis.port())) {
            proxy.stall();
            String url = "redis://127.0.0.1:" + proxy.port();
            assertThatThrownBy(() -> RedisPreflight.check(at(url).build(), Map.of("CLOUDG_REDIS_PASSWORD", "s3cret")::get))
                    .isInstanceOf(StateStoreUnavailableException.class)
                    .hasMessage("Redis at " + url + " did not answer within 500 ms, " + RedisPreflight.SILENT_TRIES
                            + " tries (ratelimit.redis.timeout_ms); if that port serves TLS, use rediss:// in "
                            + "ratelimit.redis.url or --redis");
            assertThat(proxy.connections()).isEqualTo(RedisPreflight.SILENT_TRIES);
        }
    }

    @Test
    void aDatabaseTheServerLacksIsNamed() {
        assertThatThrownBy(() -> RedisPreflight.check(at("redis://:s3cret@127.0.0.1:" + redis.port() + "/99").build(), NO_ENV))
                .hasMessage("Redis at " + where() + " has no database 99 (the path of ratelimit.redis.url)");
    }

    @Test
    void theStoreOfEveryCommandStartsOnlyAfterThePreflight() {
        RateLimitConfig config = RateLimitConfig.fromYaml("ratelimit: {backend: redis}").withRedisUrl(where());
        assertThatThrownBy(() -> StateStores.reachable(config.redis(), Map.of("CLOUDG_REDIS_PASSWORD", "nope")::get, TimeSource.system()))
                .isInstanceOf(StateStoreUnavailableException.class)
                .hasMessageContaining("refused the password");
        try (StateStore s = StateStores.reachable(config.redis(), Map.of("CLOUDG_REDIS_PASSWORD", "s3cret")::get, TimeSource.system())) {
            assertThat(s).isNotNull();
        }
        assertThatThrownBy(() -> RedisRateLimitAdmin.connect(config.redis(), NO_ENV))
                .hasMessageContaining("requires a password");
    }
}
