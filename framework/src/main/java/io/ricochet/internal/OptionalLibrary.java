package io.ricochet.internal;

/**
 * A library the framework declares optional, needed only by the feature that uses it. Each entry point that turns
 * the feature on calls {@link #require()} before any class of the library is loaded, so that a user who left the
 * library out gets one line saying what to add, not a {@link NoClassDefFoundError} from deep inside.
 */
public enum OptionalLibrary {
    /** The Noise channel's handshake and ciphers. */
    NOISE("com.southernstorm.noise.protocol.HandshakeState",
            "Noise needs org.signal.forks:noise-java 0.1.1 on the class path (add it to your dependencies)"),
    /** QUIC: the codec's classes; the native (quiche) is a second artifact, one per platform. */
    QUIC("io.netty.handler.codec.quic.QuicSslContext",
            "QUIC needs io.netty:netty-codec-classes-quic on the class path, with netty-codec-native-quic for your "
                    + "platform (add them to your dependencies, at the framework's Netty version)");

    private final String probe;
    private final String missing;
    private volatile boolean present;

    OptionalLibrary(String probe, String missing) {
        this.probe = probe;
        this.missing = missing;
    }

    /** Whether the library's classes can be loaded by the framework's class loader. */
    public boolean isPresent() {
        if (present) {
            return true;
        }
        try {
            Class.forName(probe, false, OptionalLibrary.class.getClassLoader());
            present = true;
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Returns quietly when the library is there; otherwise throws {@link IllegalStateException} saying what to add. */
    public void require() {
        if (!isPresent()) {
            throw new IllegalStateException(missing);
        }
    }

    /** The one-line message {@link #require()} throws with. */
    public String missingMessage() {
        return missing;
    }
}
