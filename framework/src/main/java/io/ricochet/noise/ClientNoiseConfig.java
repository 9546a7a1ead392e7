package io.ricochet.noise;

import io.ricochet.config.Checks;
import java.time.Duration;
import java.util.Base64;

/**
 * A client's side of the Noise channel: the server's pinned public key, and how this client's traffic is sealed
 * (the server answers in kind).
 *
 * @param serverPublicKey  the server's static X25519 public key, 32 bytes
 * @param mode             package or stream
 * @param keyBits          AES-GCM key length, 128 or 256
 * @param handshakeTimeout a handshake not finished by then fails the connection
 */
public record ClientNoiseConfig(byte[] serverPublicKey, NoiseMode mode, int keyBits, Duration handshakeTimeout) {

    public ClientNoiseConfig {
        Checks.notNull("serverPublicKey", serverPublicKey);
        if (serverPublicKey.length != NoiseKeyPair.KEY_BYTES) {
            throw new IllegalArgumentException("serverPublicKey: " + serverPublicKey.length + " bytes (expected: "
                    + NoiseKeyPair.KEY_BYTES + ")");
        }
        serverPublicKey = serverPublicKey.clone();
        if (LowOrderPoints.contains(serverPublicKey)) {
            // X25519 with such a point yields a secret anyone can compute: the pin would authenticate nobody.
            throw new IllegalArgumentException("serverPublicKey: a low-order point (expected: a server's public key)");
        }
        Checks.notNull("mode", mode);
        if (keyBits != 128 && keyBits != 256) {
            throw new IllegalArgumentException("keyBits: " + keyBits + " (expected: 128 or 256)");
        }
        Checks.positive("handshakeTimeout", handshakeTimeout);
    }

    @Override
    public byte[] serverPublicKey() {
        return serverPublicKey.clone();
    }

    int keyBytes() {
        return keyBits / 8;
    }

    public static Builder builder(byte[] serverPublicKey) {
        return new Builder(serverPublicKey);
    }

    @Override
    public String toString() {
        return "ClientNoiseConfig[server=" + Base64.getEncoder().encodeToString(serverPublicKey) + ", mode=" + mode.label()
                + ", keyBits=" + keyBits + ", handshakeTimeout=" + handshakeTimeout + "]";
    }

    public static final class Builder {
        private final byte[] serverPublicKey;
        private NoiseMode mode = NoiseMode.PACKAGE;
        private int keyBits = 256;
        private Duration handshakeTimeout = ServerNoiseConfig.DEFAULT_HANDSHAKE_TIMEOUT;

        private Builder(byte[] serverPublicKey) {
            this.serverPublicKey = serverPublicKey;
        }

        public Builder mode(NoiseMode mode) {
            this.mode = mode;
            return this;
        }

        public Builder keyBits(int keyBits) {
            this.keyBits = keyBits;
            return this;
        }

        public Builder handshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
            return this;
        }

        public ClientNoiseConfig build() {
            return new ClientNoiseConfig(serverPublicKey, mode, keyBits, handshakeTimeout);
        }
    }
}
