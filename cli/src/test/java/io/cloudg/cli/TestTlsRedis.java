package io.cloudg.cli;

import io.cloudg.fleet.local.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import redis.embedded.RedisServer;

/**
 * A real redis-server (the embedded-redis binary, built with TLS) that requires a password and serves TLS on
 * a second port with a certificate {@link TestCertificates} made: the server the start-up failure tests point
 * every command at.
 */
final class TestTlsRedis implements AutoCloseable {
    static final String PASSWORD = "s3cret";

    final TestCertificates certs;
    final int port;
    final int tlsPort;
    private final RedisServer server;

    private TestTlsRedis(TestCertificates certs, int port, int tlsPort, RedisServer server) {
        this.certs = certs;
        this.port = port;
        this.tlsPort = tlsPort;
        this.server = server;
    }

    /** The server's certificate names {@code localhost} only: {@code 127.0.0.1} is another name. */
    static TestTlsRedis start(Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir, List.of("localhost"), List.of());
        int port = FreePorts.next();
        int tlsPort = FreePorts.next();
        RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").setting("requirepass " + PASSWORD).setting("tls-port " + tlsPort)
                .setting("tls-cert-file " + certs.serverCertPem()).setting("tls-key-file " + certs.serverKeyPem())
                .setting("tls-ca-cert-file " + certs.caPem()).setting("tls-auth-clients no").build();
        server.start();
        return new TestTlsRedis(certs, port, tlsPort, server);
    }

    /** {@code redis://127.0.0.1:port}, without a password. */
    String plain() {
        return "redis://127.0.0.1:" + port;
    }

    /** {@code rediss://[:password@]host:tlsPort}. */
    String tls(String host, boolean withPassword) {
        return "rediss://" + (withPassword ? ":" + PASSWORD + "@" : "") + host + ":" + tlsPort;
    }

    @Override
    public void close() throws IOException {
        server.stop();
    }
}
