package io.ricochet.tls;

/**
 * Makes the JDK's TLS refuse a renegotiation that a client starts, as BoringSSL (the OpenSSL provider) always does:
 * a TLS 1.2 client could otherwise ask for one full handshake after another on one connection, each costing the server
 * a signature (19 in 4 s were seen). The JDK has no per-engine setting for it ({@code SSLParameters} has none, and
 * refusing new sessions still lets a resumed renegotiation through); its only switch is the system property
 * {@value #PROPERTY}, which it reads once per process, when the first server-side handshake begins
 * ({@code sun.security.ssl.ServerHandshakeContext}'s static initializer). So it is set as a server's JDK context is
 * wrapped in a {@link Tls}, before that context can handshake. A value set on the command line is left as it is. It
 * comes too late for a process that already made a server-side JDK handshake: such an application passes
 * {@code -D}{@value #PROPERTY}{@code =true} itself. It applies to every JDK server engine in the process.
 */
final class JdkRenegotiation {
    static final String PROPERTY = "jdk.tls.rejectClientInitiatedRenegotiation";

    private JdkRenegotiation() {
    }

    static void refuseClientInitiated() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "true");
        }
    }
}
