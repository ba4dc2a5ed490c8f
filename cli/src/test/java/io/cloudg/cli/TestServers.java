package io.cloudg.cli;

import io.cloudg.fleet.local.FreePorts;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import redis.embedded.RedisServer;

/**
 * Real servers the cli's tests run in their own JVM: a one-node KRaft Kafka (the test kit) and a redis-server
 * (embedded-redis, no persistence) on a free port of 127.0.0.1. Closing stops both.
 */
record TestServers(KafkaClusterTestKit kafka, RedisServer redis, String redisUrl) implements AutoCloseable {
    static TestServers start() throws Exception {
        KafkaClusterTestKit kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                .setNumBrokerNodes(1).setNumControllerNodes(1).build()).setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0").build();
        kafka.format();
        kafka.startup();
        kafka.waitForReadyBrokers();
        int port = FreePorts.next();
        RedisServer redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").build();
        redis.start();
        return new TestServers(kafka, redis, "redis://127.0.0.1:" + port);
    }

    @Override
    public void close() throws Exception {
        try {
            redis.stop();
        } finally {
            kafka.close();
        }
    }
}
