package io.ricochet.transport;

import java.util.Locale;

/**
 * The ways frames travel; also the {@code protocol} tag of the meters of plain framed listeners. QUIC carries them on
 * its streams, each framed as a TCP connection is.
 */
public enum Protocol {
    TCP, UDP, QUIC;

    /** The one application protocol (ALPN) a QUIC listener accepts and a client offers: {@code ricochet}. */
    public static final String QUIC_ALPN = "ricochet";

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
