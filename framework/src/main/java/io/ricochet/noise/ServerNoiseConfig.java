package io.ricochet.noise;

import io.ricochet.internal.Checks;
import java.time.Duration;

/**
 * A server's side of the Noise channel.
 *
 * @param keyPair          the static key its clients pin
 * @param handshakeTimeout a connection that has not finished the handshake by then is closed and counted
 */
public record ServerNoiseConfig(NoiseKeyPair keyPair, Duration handshakeTimeout) {
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    public ServerNoiseConfig {
        Checks.notNull("keyPair", keyPair);
        Checks.positive("handshakeTimeout", handshakeTimeout);
    }

    public static ServerNoiseConfig of(NoiseKeyPair keyPair) {
        return new ServerNoiseConfig(keyPair, DEFAULT_HANDSHAKE_TIMEOUT);
    }
}
