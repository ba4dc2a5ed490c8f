package io.cloudg.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.redis.RedisClients;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.config.TransportMode;

/**
 * The fleet's governor client on the worker's class path (the one the launcher runs): Netty's native epoll
 * transport on Linux x86-64, whose event loops spend less CPU per Redis round trip than Java's selector
 * (0.83-0.93x in a fleet map: docs/benchmarks-history.md, "Redisson on Netty's native epoll transport").
 */
class GovernorTransportTest {
    @Test
    void onLinuxTheGovernorsRedisClientUsesNativeEpoll() {
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch").matches("amd64|x86_64"), "native epoll ships for Linux x86-64 only");
        RedisSettings s = RedisSettings.builder().url("redis://127.0.0.1:1").build(); // lazy: nothing connects
        RedissonClient client = RedisClients.create(s, k -> null);
        try {
            assertThat(client.getConfig().getTransportMode()).isEqualTo(TransportMode.EPOLL);
        } finally {
            client.shutdown();
        }
    }
}
