package io.ricochet.noise;

import io.ricochet.config.Checks;
import io.ricochet.config.HandshakeThreads;
import java.time.Duration;

/**
 * A server's side of the Noise channel: its key, and how much handshake work peers may ask of it. A handshake is
 * in progress from its first message until the server's answer is made; one past either bound is shed (the
 * connection is closed, no key agreement done) and counted in {@code ricochet.noise.handshakes.shed}.
 *
 * <pre>{@code
 * ServerNoiseConfig noise = ServerNoiseConfig.builder(NoiseKeyPair.read(Path.of("noise.key")))
 *         .maxHandshakes(1024)
 *         .maxHandshakesPerAddress(128)
 *         .build();
 * RicochetServer.builder().listen(Listener.tcp(7500).noise(noise))...
 * }</pre>
 *
 * @param keyPair                 the static key its clients pin
 * @param handshakeTimeout        a connection that has not finished the handshake by then is closed and counted
 * @param maxHandshakes           handshakes in progress at once, queued or computing, over all peers
 * @param maxHandshakesPerAddress handshakes in progress at once from one source (an IPv4 address, or an IPv6 /64), at
 *                                most {@code maxHandshakes}; the builder's default is an eighth of it, 128
 * @param handshakeThreads        threads that compute handshakes, apart from the event loops; 0 means a quarter of
 *                                the available processors, at least one
 */
public record ServerNoiseConfig(NoiseKeyPair keyPair, Duration handshakeTimeout, int maxHandshakes,
        int maxHandshakesPerAddress, int handshakeThreads) {
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    /** About 0.3 s of work for one handshake thread (0.3 ms a handshake): far below a client's handshake timeout. */
    public static final int DEFAULT_MAX_HANDSHAKES = 1024;
    /**
     * The total's share of one source unless set: an eighth, so one source cannot take the queue from the others,
     * while a pool of clients connecting at once from one host (or behind one NAT) still fits.
     */
    public static final int DEFAULT_ADDRESS_SHARE = 8;

    public ServerNoiseConfig {
        Checks.notNull("keyPair", keyPair);
        Checks.positive("handshakeTimeout", handshakeTimeout);
        Checks.positive("maxHandshakes", maxHandshakes);
        Checks.inRange("maxHandshakesPerAddress", maxHandshakesPerAddress, 1, maxHandshakes);
        Checks.inRange("handshakeThreads", handshakeThreads, 0, 1024);
    }

    /** {@code keyPair} with every default. */
    public static ServerNoiseConfig of(NoiseKeyPair keyPair) {
        return builder(keyPair).build();
    }

    public static Builder builder(NoiseKeyPair keyPair) {
        return new Builder(keyPair);
    }

    /** Handshake threads after resolving 0. */
    public int resolvedHandshakeThreads() {
        return HandshakeThreads.resolve(handshakeThreads);
    }

    /** Fluent builder; {@link #build()} validates. */
    public static final class Builder {
        private final NoiseKeyPair keyPair;
        private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
        private int maxHandshakes = DEFAULT_MAX_HANDSHAKES;
        private Integer maxHandshakesPerAddress;
        private int handshakeThreads;

        private Builder(NoiseKeyPair keyPair) {
            this.keyPair = keyPair;
        }

        public Builder handshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
            return this;
        }

        public Builder maxHandshakes(int maxHandshakes) {
            this.maxHandshakes = maxHandshakes;
            return this;
        }

        public Builder maxHandshakesPerAddress(int maxHandshakesPerAddress) {
            this.maxHandshakesPerAddress = maxHandshakesPerAddress;
            return this;
        }

        public Builder handshakeThreads(int handshakeThreads) {
            this.handshakeThreads = handshakeThreads;
            return this;
        }

        /** Validates; the per-address bound follows the total (an eighth of it) unless set. */
        public ServerNoiseConfig build() {
            int perAddress = maxHandshakesPerAddress != null ? maxHandshakesPerAddress
                    : Math.max(1, maxHandshakes / DEFAULT_ADDRESS_SHARE);
            return new ServerNoiseConfig(keyPair, handshakeTimeout, maxHandshakes, perAddress, handshakeThreads);
        }
    }
}
