package io.cloudg.cli;

import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A private CA and a server certificate it signed, made in this JVM (Bouncy Castle's certificate builder over the
 * JDK's EC keys and signatures: a set takes milliseconds, where the five keytool processes it replaced took
 * 6 CPU-seconds and, on a loaded 2-core machine, up to a minute), in the forms servers and clients take: PEM for
 * redis-server ({@code tls-cert-file}, {@code tls-key-file}) and for {@code ratelimit.redis.ca_file}; PKCS12 for
 * a Kafka listener's key store and a client's trust store. Valid from a minute ago for two days.
 *
 * @param caPem the CA's certificate (PEM)
 * @param serverCertPem the server's certificate (PEM)
 * @param serverKeyPem the server's private key (PKCS#8 PEM)
 * @param serverKeyStore the server's key and chain (PKCS12, password {@link #PASSWORD})
 * @param trustStore the CA's certificate (PKCS12, password {@link #PASSWORD})
 */
record TestCertificates(Path caPem, Path serverCertPem, Path serverKeyPem, Path serverKeyStore, Path trustStore) {
    static final String PASSWORD = "changeit";
    private static final SecureRandom SERIALS = new SecureRandom();

    /** Makes a CA and a server certificate for {@code localhost} and {@code 127.0.0.1} under {@code dir}. */
    static TestCertificates create(Path dir) throws Exception {
        return create(dir, List.of("localhost"), List.of("127.0.0.1"));
    }

    /** Makes a CA and a server certificate whose subject alternative names are these host names and addresses. */
    static TestCertificates create(Path dir, List<String> dnsNames, List<String> ipAddresses) throws Exception {
        Files.createDirectories(dir);
        Instant now = Instant.now();
        Date from = Date.from(now.minus(Duration.ofMinutes(1)));
        Date to = Date.from(now.plus(Duration.ofDays(2)));
        JcaX509ExtensionUtils ids = new JcaX509ExtensionUtils();

        KeyPair caKeys = ecKeys();
        X500Name caName = new X500Name("CN=cloudg test CA");
        X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, serial(), from, to, caName, caKeys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false, ids.createSubjectKeyIdentifier(caKeys.getPublic()));
        X509Certificate caCert = sign(ca, caKeys);

        KeyPair serverKeys = ecKeys();
        List<GeneralName> names = new ArrayList<>();
        dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
        ipAddresses.forEach(a -> names.add(new GeneralName(GeneralName.iPAddress, a)));
        PublicKey serverPublic = serverKeys.getPublic();
        X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caCert, serial(), from, to,
                new X500Name("CN=localhost"), serverPublic)
                .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.subjectKeyIdentifier, false, ids.createSubjectKeyIdentifier(serverPublic))
                .addExtension(Extension.authorityKeyIdentifier, false, ids.createAuthorityKeyIdentifier(caCert));
        X509Certificate serverCert = sign(server, caKeys);

        Path caFile = pem(dir.resolve("ca.pem"), "CERTIFICATE", caCert.getEncoded());
        Path certPem = pem(dir.resolve("server.crt"), "CERTIFICATE", serverCert.getEncoded());
        Path keyPem = pem(dir.resolve("server.key"), "PRIVATE KEY", serverKeys.getPrivate().getEncoded());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("server", serverKeys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {serverCert, caCert});
        Path keyStore = store(keys, dir.resolve("server.p12"));
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", caCert);
        Path trustStore = store(trust, dir.resolve("truststore.p12"));
        return new TestCertificates(caFile, certPem, keyPem, keyStore, trustStore);
    }

    private static KeyPair ecKeys() throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        return ec.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(64, SERIALS).add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuer) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
    }

    private static Path pem(Path file, String type, byte[] der) throws Exception {
        return Files.writeString(file, "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n");
    }

    private static Path store(KeyStore ks, Path file) throws Exception {
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, PASSWORD.toCharArray());
        }
        return file;
    }
}
