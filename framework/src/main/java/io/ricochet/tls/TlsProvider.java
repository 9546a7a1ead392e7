package io.ricochet.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import io.ricochet.config.Labels;

/** Which TLS implementation runs a connection: OpenSSL (BoringSSL, through netty-tcnative) or the JDK's. */
public enum TlsProvider {
    /** OpenSSL when its native library loads, else the JDK. */
    AUTO,
    /** OpenSSL, or a configuration error naming why it cannot load. */
    OPENSSL,
    JDK;

    /** The provider this choice runs on here; fails with {@link IllegalArgumentException} if OpenSSL was forced and cannot load. */
    public SslProvider resolve() {
        return switch (this) {
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalArgumentException("tls provider: openssl is not available here ("
                            + OpenSsl.unavailabilityCause() + "); add netty-tcnative-boringssl-static for this platform, "
                            + "or use jdk");
                }
                yield SslProvider.OPENSSL;
            }
            case JDK -> SslProvider.JDK;
        };
    }

    /** {@code openssl} or {@code jdk}: the provider's name in logs and in the {@code tls} meter tag. */
    public static String tag(SslProvider provider) {
        return provider == SslProvider.JDK ? "jdk" : "openssl";
    }

    public static TlsProvider parse(String value) {
        return Labels.parse(values(), value, "tls provider", "auto, openssl or jdk");
    }
}
