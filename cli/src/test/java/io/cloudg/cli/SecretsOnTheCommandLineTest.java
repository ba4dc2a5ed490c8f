package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.RateLimitConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A password inside {@code --redis} or {@code --postgres} shows in {@code ps}: the docs say so where those
 * flags are explained and point to the variables, and the URL without its password plus the variable works
 * as they say (for {@code --postgres} and {@code PGPASSWORD}: {@code PostgresUrlTest} in the worker module).
 */
class SecretsOnTheCommandLineTest {
    static final Path DOCS = Path.of("..", "docs");

    @Test
    void theDocsWarnThatAUrlPasswordShowsInPsAndNameTheVariableToUseInstead() throws Exception {
        Map<String, String[]> required = Map.of(
                "mcp.md", new String[] {"--redis", "`ps`", "CLOUDG_REDIS_PASSWORD", "ratelimit.redis.password_env"},
                "redis-backend.md", new String[] {"--redis", "`ps`", "CLOUDG_REDIS_PASSWORD", "ratelimit.redis.password_env"},
                "postgres.md", new String[] {"--postgres", "`ps`", "PGPASSWORD", "password_env"},
                "configuration.md", new String[] {"--redis", "--postgres", "`ps`", "CLOUDG_REDIS_PASSWORD", "PGPASSWORD",
                        "destinations[].password_env"});
        required.forEach((doc, words) -> {
            String text;
            try {
                text = Files.readString(DOCS.resolve(doc)).replaceAll("\\s+", " ");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThat(text).as(doc).contains(words).containsPattern("visible to every (local )?user");
        });
    }

    @Test
    void aUrlWithoutItsPasswordTakesItFromTheVariableTheDocsName() {
        RateLimitConfig fromFlag = CloudGConfig.fromYaml("providers: [aws]").ratelimit()
                .withRedisUrl("rediss://cache.internal:6380");
        assertThat(fromFlag.redis().resolvedPassword(Map.of("CLOUDG_REDIS_PASSWORD", "s3cret")::get)).isEqualTo("s3cret");
        RateLimitConfig named = CloudGConfig.fromYaml("ratelimit: {redis: {password_env: CACHE_PW}}").ratelimit()
                .withRedisUrl("redis://cache:6379");
        assertThat(named.redis().resolvedPassword(Map.of("CACHE_PW", "other")::get)).as("--redis keeps password_env")
                .isEqualTo("other");
    }
}
