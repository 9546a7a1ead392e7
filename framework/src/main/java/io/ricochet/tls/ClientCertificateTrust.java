package io.ricochet.tls;

import io.netty.handler.ssl.OpenSslCertificateException;
import io.netty.internal.tcnative.CertificateVerifier;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateRevokedException;
import java.security.cert.PKIXReason;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's PKIX trust in a server's client CAs, for the OpenSSL provider: a client certificate it refuses is refused
 * with the OpenSSL verify error that says why, so BoringSSL ends the handshake with the matching certificate alert.
 * Netty turns a refusal it cannot read a reason from into {@code X509_V_ERR_UNSPECIFIED}, which BoringSSL answers with
 * {@code internal_error}, as if the server had failed; the JDK's refusal of a certificate from an unknown CA is such a
 * refusal. Here:
 * <ul>
 *   <li>expired, not yet valid: {@code certificate_expired}; revoked: {@code certificate_revoked};</li>
 *   <li>no path to one of the CAs: {@code unknown_ca};</li>
 *   <li>any other refusal (a bad signature, a constraint broken): {@code bad_certificate}.</li>
 * </ul>
 * A missing certificate never reaches it: BoringSSL refuses that itself ({@code certificate_required} in TLS 1.3,
 * {@code handshake_failure} in TLS 1.2). The JDK provider's own engine sends {@code certificate_unknown} for any
 * refusal, so it does not need this.
 */
final class ClientCertificateTrust extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager pkix;

    private ClientCertificateTrust(X509ExtendedTrustManager pkix) {
        this.pkix = pkix;
    }

    /**
     * Trust in the PEM CA certificates read from {@code in} ({@code clientCa} names it in errors). Fails with
     * {@link IllegalArgumentException} when it holds none or cannot be parsed.
     */
    static ClientCertificateTrust of(InputStream in) throws IOException {
        try {
            Collection<? extends Certificate> cas = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (cas.isEmpty()) {
                throw new IllegalArgumentException("no certificates in it");
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate ca : cas) {
                store.setCertificateEntry("client-ca-" + i++, ca);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager pkix) {
                    return new ClientCertificateTrust(pkix);
                }
            }
            throw new IllegalStateException("the JDK's " + factory.getAlgorithm() + " has no X509ExtendedTrustManager");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * The OpenSSL verify error for the refusal {@code e}: a specific reason anywhere among its causes first, then a
     * path that could not be built to a CA, else a certificate rejected.
     */
    static int verifyError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return CertificateVerifier.X509_V_ERR_CERT_HAS_EXPIRED;
            }
            if (t instanceof CertificateNotYetValidException) {
                return CertificateVerifier.X509_V_ERR_CERT_NOT_YET_VALID;
            }
            if (t instanceof CertificateRevokedException) {
                return CertificateVerifier.X509_V_ERR_CERT_REVOKED;
            }
            if (t instanceof CertPathValidatorException v) {
                if (v.getReason() == BasicReason.EXPIRED) {
                    return CertificateVerifier.X509_V_ERR_CERT_HAS_EXPIRED;
                }
                if (v.getReason() == BasicReason.NOT_YET_VALID) {
                    return CertificateVerifier.X509_V_ERR_CERT_NOT_YET_VALID;
                }
                if (v.getReason() == BasicReason.REVOKED) {
                    return CertificateVerifier.X509_V_ERR_CERT_REVOKED;
                }
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CertPathBuilderException
                    || t instanceof CertPathValidatorException v && v.getReason() == PKIXReason.NO_TRUST_ANCHOR) {
                return CertificateVerifier.X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY;
            }
        }
        return CertificateVerifier.X509_V_ERR_CERT_REJECTED;
    }

    /** A check of the JDK's trust manager. */
    private interface TrustCheck {
        void run() throws CertificateException;
    }

    /** Runs {@code check}, its refusal carrying the OpenSSL error the handshake's alert is made from. */
    private static void refusing(TrustCheck check) throws CertificateException {
        try {
            check.run();
        } catch (CertificateException e) {
            throw refused(e);
        }
    }

    private static CertificateException refused(CertificateException e) {
        return e instanceof OpenSslCertificateException ? e
                : new OpenSslCertificateException(e.getMessage(), e, verifyError(e));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        refusing(() -> pkix.checkClientTrusted(chain, authType));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        refusing(() -> pkix.checkClientTrusted(chain, authType, socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        refusing(() -> pkix.checkClientTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        pkix.checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        pkix.checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        pkix.checkServerTrusted(chain, authType, engine);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return pkix.getAcceptedIssuers();
    }
}
