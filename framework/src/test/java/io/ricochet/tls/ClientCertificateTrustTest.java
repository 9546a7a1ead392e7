package io.ricochet.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.netty.internal.tcnative.CertificateVerifier;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.CertificateException;
import java.security.cert.PKIXReason;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which OpenSSL verify error, and so which alert, each kind of refusal of a client certificate becomes. */
class ClientCertificateTrustTest {

    @BeforeAll
    static void openSsl() {
        // The error codes are read from the native library.
        assumeTrue(OpenSsl.isAvailable(), "OpenSSL is not available here");
    }

    @Test
    void noPathToACaIsAnUnknownCa() {
        assertEquals(CertificateVerifier.X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, ClientCertificateTrust
                .verifyError(new CertificateException("PKIX path building failed", new CertPathBuilderException(
                        "unable to find valid certification path to requested target"))));
        assertEquals(CertificateVerifier.X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, ClientCertificateTrust
                .verifyError(new CertificateException(new CertPathValidatorException("no anchor", null, null, -1,
                        PKIXReason.NO_TRUST_ANCHOR))));
    }

    @Test
    void aReasonAnywhereAmongTheCausesComesFirst() {
        assertEquals(CertificateVerifier.X509_V_ERR_CERT_HAS_EXPIRED, ClientCertificateTrust.verifyError(
                new CertificateException(new CertPathBuilderException(new CertPathValidatorException("validity",
                        null, null, -1, BasicReason.EXPIRED)))));
        assertEquals(CertificateVerifier.X509_V_ERR_CERT_REVOKED, ClientCertificateTrust.verifyError(
                new CertificateException(new CertPathValidatorException("revoked", null, null, -1,
                        BasicReason.REVOKED))));
    }

    @Test
    void anyOtherRefusalIsABadCertificateNeverAnInternalError() {
        assertEquals(CertificateVerifier.X509_V_ERR_CERT_REJECTED, ClientCertificateTrust.verifyError(
                new CertificateException(new CertPathValidatorException("signature", null, null, -1,
                        BasicReason.INVALID_SIGNATURE))));
        assertEquals(CertificateVerifier.X509_V_ERR_CERT_REJECTED,
                ClientCertificateTrust.verifyError(new CertificateException("refused")));
    }
}
