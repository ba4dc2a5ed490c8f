package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.RedisSettings;
import java.util.function.Function;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.BaseConfig;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.SentinelServersConfig;
import org.redisson.config.SingleServerConfig;
import org.redisson.config.TransportMode;

/**
 * Builds the Redisson client from {@code ratelimit.redis}: standalone, Sentinel or Cluster; AUTH or ACL
 * user + password (from the config, the URL or an environment variable); TLS for {@code rediss://}
 * addresses, the server verified by the CA of {@code ratelimit.redis.ca_file} or {@code trust_store} when one is
 * set ({@link RedisTrust}), else by the JVM's trust store. The client initializes lazily, so building it
 * never fails when Redis is down: the first call does, and the degrading store takes over. Few client-side
 * retries: an unreachable Redis should be noticed within about one {@code timeout_ms}.
 */
public final class RedisClients {
    private RedisClients() {
    }

    public static RedissonClient create(RedisSettings s, Function<String, String> env) {
        Config c = new Config();
        c.setCodec(StringCodec.INSTANCE);
        c.setTransportMode(nativeEpoll() ? TransportMode.EPOLL : TransportMode.NIO);
        c.setLazyInitialization(true);
        BaseConfig<?> base;
        String[] addresses = s.addresses().toArray(new String[0]);
        switch (s.mode()) {
            case SENTINEL: {
                SentinelServersConfig sc = c.useSentinelServers().setMasterName(s.sentinelMaster())
                        .addSentinelAddress(addresses).setDatabase(s.database())
                        .setMasterConnectionPoolSize(s.poolSize()).setMasterConnectionMinimumIdleSize(s.minIdle())
                        .setCheckSentinelsList(false);
                base = sc;
                break;
            }
            case CLUSTER: {
                ClusterServersConfig cc = c.useClusterServers().addNodeAddress(addresses)
                        .setMasterConnectionPoolSize(s.poolSize()).setMasterConnectionMinimumIdleSize(s.minIdle());
                base = cc;
                break;
            }
            default: {
                SingleServerConfig sc = c.useSingleServer().setAddress(addresses[0]).setDatabase(s.database())
                        .setConnectionPoolSize(s.poolSize()).setConnectionMinimumIdleSize(s.minIdle());
                base = sc;
            }
        }
        base.setUsername(s.resolvedUsername());
        base.setPassword(s.resolvedPassword(env));
        javax.net.ssl.TrustManagerFactory trust = RedisTrust.trustManagers(s, env);
        if (trust != null) {
            base.setSslTrustManagerFactory(trust);
        }
        base.setConnectTimeout(s.connectTimeoutMs());
        base.setTimeout(s.timeoutMs());
        base.setRetryAttempts(1);
        base.setClientName("cloudg-governor");
        base.setPingConnectionInterval(10_000);
        return Redisson.create(c);
    }

    /**
     * Whether Netty's native epoll transport is on the class path and loads here (Linux): its event loops
     * spend less CPU per round trip than Java's selector, and a fleet worker makes one or more per governed
     * call. Elsewhere Redisson keeps Java's (NIO).
     */
    static boolean nativeEpoll() {
        try {
            Class<?> epoll = Class.forName("io.netty.channel.epoll.Epoll", false, RedisClients.class.getClassLoader());
            return (Boolean) epoll.getMethod("isAvailable").invoke(null);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return false;
        }
    }
}
