package io.cloudg.cli;

import io.cloudg.fleet.local.FreePorts;
import java.nio.file.Path;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node Kafka (the Kafka test kit, KRaft) with three client listeners: PLAINTEXT
 * ({@link #bootstrap()}), SSL with a certificate {@link TestCertificates} made ({@link #ssl()}), and
 * SASL_PLAINTEXT with the PLAIN mechanism and one user, {@value #USER} / {@value #PASSWORD} ({@link #sasl()}).
 * The SASL user is configured on the listener itself, not in a JVM-wide JAAS file.
 */
final class TestSecureKafka implements AutoCloseable {
    static final String USER = "cloudg";
    static final String PASSWORD = "cloudg-secret";

    final TestCertificates certs;
    private final KafkaClusterTestKit kit;
    private final int sslPort;
    private final int saslPort;

    private TestSecureKafka(TestCertificates certs, KafkaClusterTestKit kit, int sslPort, int saslPort) {
        this.certs = certs;
        this.kit = kit;
        this.sslPort = sslPort;
        this.saslPort = saslPort;
    }

    static TestSecureKafka start(Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        int ssl = FreePorts.next();
        int sasl = FreePorts.next();
        KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                .setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0,SECURE://localhost:" + ssl
                        + ",SASL://localhost:" + sasl)
                .setConfigProp("listener.security.protocol.map",
                        "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,SECURE:SSL,SASL:SASL_PLAINTEXT")
                .setConfigProp("listener.name.secure.ssl.keystore.location", certs.serverKeyStore().toString())
                .setConfigProp("listener.name.secure.ssl.keystore.type", "PKCS12")
                .setConfigProp("listener.name.secure.ssl.keystore.password", TestCertificates.PASSWORD)
                .setConfigProp("listener.name.secure.ssl.key.password", TestCertificates.PASSWORD)
                .setConfigProp("sasl.enabled.mechanisms", "PLAIN")
                .setConfigProp("listener.name.sasl.plain.sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required user_" + USER + "=\"" + PASSWORD + "\";")
                .build();
        // the formatter prints two lines on the JVM's stdout: never while a test captures it (a server started in
        // the background, StartupFailuresTest), so under the lock MapCommandTest.run captures it with
        synchronized (MapCommandTest.class) {
            kit.format();
        }
        kit.startup();
        kit.waitForReadyBrokers();
        return new TestSecureKafka(certs, kit, ssl, sasl);
    }

    KafkaClusterTestKit kit() {
        return kit;
    }

    /** The PLAINTEXT listener. */
    String bootstrap() {
        return kit.bootstrapServers();
    }

    /** The SSL listener, {@code localhost:port}. */
    String ssl() {
        return "localhost:" + sslPort;
    }

    /** The SASL_PLAINTEXT listener, {@code localhost:port}. */
    String sasl() {
        return "localhost:" + saslPort;
    }

    @Override
    public void close() throws Exception {
        kit.close();
    }
}
