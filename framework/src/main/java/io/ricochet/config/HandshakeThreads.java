package io.ricochet.config;

/**
 * How many threads a listener gives to handshakes apart from its event loops, TLS's and Noise's alike: as asked, or by
 * default a quarter of the cores, at least one, so that a flood of handshakes leaves the rest to established
 * connections.
 *
 * <pre>{@code
 * int threads = HandshakeThreads.resolve(config.handshakeThreads());
 * }</pre>
 */
public final class HandshakeThreads {
    private HandshakeThreads() {
    }

    /** {@code requested}, or for 0 a quarter of the available processors, at least one. */
    public static int resolve(int requested) {
        return requested != 0 ? requested : Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
    }
}
