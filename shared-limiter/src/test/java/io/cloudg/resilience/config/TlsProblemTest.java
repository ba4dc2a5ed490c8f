package io.cloudg.resilience.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/**
 * How a TLS failure is read from what a client library threw: the JDK's handshake exception, wrapped once or
 * more (real handshakes against a Redis and a Kafka: the CLI's RedisTlsTest and StartupFailuresTest).
 */
class TlsProblemTest {
    static Throwable wrapped(String message, Throwable cause) {
        SSLHandshakeException h = new SSLHandshakeException(message);
        h.initCause(cause);
        return new RuntimeException("Unable to connect", new IllegalStateException("SSL handshake failed", h));
    }

    @Test
    void eachProblemIsToldApart() {
        assertThat(TlsProblem.of(wrapped("PKIX path building failed: unable to find valid certification path to requested target",
                null))).isEqualTo(TlsProblem.UNTRUSTED);
        assertThat(TlsProblem.of(wrapped("No subject alternative DNS name matching redis.internal found.",
                new CertificateException("No subject alternative DNS name matching redis.internal found.")))).isEqualTo(TlsProblem.WRONG_HOST);
        assertThat(TlsProblem.of(wrapped("PKIX path validation failed: validity check failed",
                new CertificateExpiredException("NotAfter: Mon Jan 01 00:00:00 UTC 2024")))).isEqualTo(TlsProblem.EXPIRED);
        assertThat(TlsProblem.of(wrapped("Received fatal alert: certificate_required", null))).isEqualTo(TlsProblem.CLIENT_CERTIFICATE);
        assertThat(TlsProblem.of(wrapped("Received fatal alert: protocol_version", null))).isEqualTo(TlsProblem.OTHER);
        assertThat(TlsProblem.message(wrapped("Received fatal alert: protocol_version", null)))
                .isEqualTo("Received fatal alert: protocol_version");
    }

    @Test
    void aFailureWithoutTlsIsNone() {
        assertThat(TlsProblem.of(new IOException("Connection refused"))).isNull();
        assertThat(TlsProblem.of(new RuntimeException("PKIX path mentioned outside any TLS exception"))).isNull();
    }
}
