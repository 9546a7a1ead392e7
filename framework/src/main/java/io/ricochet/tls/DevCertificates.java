package io.ricochet.tls;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * Certificates for tests and local runs, made with BouncyCastle: a CA, and certificates it issues for
 * {@code localhost} and {@code 127.0.0.1}, on P-256 keys. Not for production, where certificates come
 * from a real CA. Needs {@code org.bouncycastle:bcpkix-jdk18on} on the class path (an optional dependency).
 */
public final class DevCertificates {
    private DevCertificates() {
    }

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey privateKey) {
        /** Writes {@code name.crt} (PEM certificate) and {@code name.key} (PEM PKCS#8 key) into {@code dir}. */
        public PemFiles write(Path dir, String name) throws IOException {
            Files.createDirectories(dir);
            Path cert = dir.resolve(name + ".crt");
            Path key = dir.resolve(name + ".key");
            try (Writer out = Files.newBufferedWriter(cert); JcaPEMWriter pem = new JcaPEMWriter(out)) {
                pem.writeObject(certificate);
            }
            try (Writer out = Files.newBufferedWriter(key); JcaPEMWriter pem = new JcaPEMWriter(out)) {
                pem.writeObject(new PemObject("PRIVATE KEY", privateKey.getEncoded()));
            }
            return new PemFiles(cert, key);
        }
    }

    /** Where {@link Issued#write} put the certificate and the key. */
    public record PemFiles(Path certificate, Path privateKey) {
    }

    /** A self-signed CA, valid from {@code notBefore} to {@code notAfter}. */
    public static Issued certificateAuthority(String commonName, Instant notBefore, Instant notAfter) {
        KeyPair keys = newKeyPair();
        return sign(commonName, keys, commonName, keys.getPrivate(), notBefore, notAfter, true);
    }

    /** A certificate for {@code localhost} and {@code 127.0.0.1}, issued by {@code ca}: for a server or a client. */
    public static Issued issue(Issued ca, String commonName, Instant notBefore, Instant notAfter) {
        String issuer = ca.certificate().getSubjectX500Principal().getName();
        return sign(commonName, newKeyPair(), issuer, ca.privateKey(), notBefore, notAfter, false);
    }

    private static Issued sign(String subject, KeyPair keys, String issuer, PrivateKey issuerKey, Instant notBefore,
            Instant notAfter, boolean ca) {
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name(issuer),
                    new BigInteger(64, new SecureRandom()).abs().add(BigInteger.ONE), Date.from(notBefore), Date.from(notAfter),
                    name(subject), keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (ca) {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.dNSName, "localhost"),
                        new GeneralName(GeneralName.iPAddress, InetAddress.getLoopbackAddress().getHostAddress())}));
            }
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
            return new Issued(certificate, keys.getPrivate());
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make a certificate for " + subject, e);
        }
    }

    private static X500Name name(String distinguished) {
        return new X500Name(distinguished.startsWith("CN=") ? distinguished : "CN=" + distinguished);
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a P-256 key", e);
        }
    }
}
