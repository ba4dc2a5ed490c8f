package io.cloudg.resilience.config;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * What went wrong in a TLS handshake, read from the exception a client library threw (the JDK's
 * {@code SSLHandshakeException} is somewhere in its causes): the server's certificate is not signed by a trusted
 * CA, names another host, is expired or not yet valid; the server wants a client certificate; or something
 * else. The Redis and Kafka start-up checks word their one line from it.
 */
public enum TlsProblem {
    /** No trusted CA signed the server's certificate (PKIX path building failed). */
    UNTRUSTED,
    /** The certificate does not name the host connected to. */
    WRONG_HOST,
    /** The certificate is outside its validity period. */
    EXPIRED,
    /** The server asks for a client certificate, and none was sent. */
    CLIENT_CERTIFICATE,
    /** Another TLS failure. */
    OTHER;

    /** The problem {@code t} reports, or null when no TLS failure is among its causes. */
    public static TlsProblem of(Throwable t) {
        boolean tls = false;
        TlsProblem found = null;
        int depth = 0;
        for (Throwable e = t; e != null && depth++ < 20; e = e.getCause()) {
            tls |= e instanceof SSLException || e.getClass().getSimpleName().equals("SslAuthenticationException");
            String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
            if (e instanceof CertificateExpiredException || e instanceof CertificateNotYetValidException) {
                found = EXPIRED;
            } else if (found == null && (m.contains("no subject alternative") || m.contains("no name matching"))) {
                found = WRONG_HOST;
            } else if (found == null && (e instanceof CertPathBuilderException || e instanceof CertPathValidatorException
                    || m.contains("pkix path") || m.contains("unable to find valid certification path"))) {
                found = UNTRUSTED;
            } else if (found == null && (m.contains("certificate_required") || m.contains("bad_certificate"))) {
                found = CLIENT_CERTIFICATE;
            }
        }
        return !tls ? null : found == null ? OTHER : found;
    }

    /** The first TLS exception's message, for {@link #OTHER}. */
    public static String message(Throwable t) {
        int depth = 0;
        for (Throwable e = t; e != null && depth++ < 20; e = e.getCause()) {
            if (e instanceof SSLException && e.getMessage() != null) {
                return e.getMessage().replaceAll("\\s*\\R\\s*", " ").trim();
            }
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
