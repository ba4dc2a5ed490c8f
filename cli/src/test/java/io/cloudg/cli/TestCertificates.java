package io.cloudg.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private CA and a server certificate it signed, made with the JDK's {@code keytool} (no openssl, no new
 * dependency), in the forms servers and clients take: PEM for redis-server ({@code tls-cert-file},
 * {@code tls-key-file}) and for {@code ratelimit.redis.ca_file}; PKCS12 for a Kafka listener's key store and a
 * client's trust store. The server certificate names {@code localhost} and {@code 127.0.0.1}, or what the
 * caller says.
 *
 * @param caPem the CA's certificate (PEM)
 * @param serverCertPem the server's certificate (PEM)
 * @param serverKeyPem the server's private key (PKCS#8 PEM)
 * @param serverKeyStore the server's key and chain (PKCS12, password {@link #PASSWORD})
 * @param trustStore the CA's certificate (PKCS12, password {@link #PASSWORD})
 */
record TestCertificates(Path caPem, Path serverCertPem, Path serverKeyPem, Path serverKeyStore, Path trustStore) {
    static final String PASSWORD = "changeit";

    /** Makes a CA and a server certificate for {@code localhost} and {@code 127.0.0.1} under {@code dir}. */
    static TestCertificates create(Path dir) throws Exception {
        return create(dir, "dns:localhost,ip:127.0.0.1");
    }

    /** Makes a CA and a server certificate for the subject alternative names {@code san} under {@code dir}. */
    static TestCertificates create(Path dir, String san) throws Exception {
        Files.createDirectories(dir);
        Path caStore = dir.resolve("ca.p12");
        Path server = dir.resolve("server.p12");
        Path csr = dir.resolve("server.csr");
        Path cert = dir.resolve("server.crt");
        Path ca = dir.resolve("ca.pem");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=cloudg test CA",
                "-ext", "bc:c", "-validity", "2", "-keystore", caStore, "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", caStore, "-storepass", PASSWORD, "-file", ca);
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-validity", "2", "-keystore", server, "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-certreq", "-alias", "server", "-keystore", server, "-storepass", PASSWORD, "-file", csr);
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caStore, "-storepass", PASSWORD, "-infile", csr,
                "-outfile", cert, "-validity", "2", "-ext", "san=" + san, "-ext", "eku=serverAuth");

        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        Certificate caCert;
        Certificate serverCert;
        try (InputStream in = Files.newInputStream(ca)) {
            caCert = x509.generateCertificate(in);
        }
        try (InputStream in = Files.newInputStream(cert)) {
            serverCert = x509.generateCertificate(in);
        }
        KeyStore ks = KeyStore.getInstance(server.toFile(), PASSWORD.toCharArray());
        PrivateKey key = (PrivateKey) ks.getKey("server", PASSWORD.toCharArray());
        ks.setKeyEntry("server", key, PASSWORD.toCharArray(), new Certificate[] {serverCert, caCert});
        store(ks, server);
        Path keyPem = dir.resolve("server.key");
        Files.writeString(keyPem, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", caCert);
        Path trustStore = dir.resolve("truststore.p12");
        store(trust, trustStore);
        return new TestCertificates(ca, cert, keyPem, server, trustStore);
    }

    private static void store(KeyStore ks, Path file) throws Exception {
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, PASSWORD.toCharArray());
        }
    }

    private static void keytool(Object... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        for (Object a : args) {
            cmd.add(a.toString());
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", cmd.subList(1, cmd.size())) + " failed: " + out);
        }
    }
}
