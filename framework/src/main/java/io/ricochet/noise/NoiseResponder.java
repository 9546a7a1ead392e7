package io.ricochet.noise;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.Arrays;

/**
 * The server's side of the NK handshake (docs/protocol.md, "The Noise channel") as one step: the client's first
 * message in; the answer, the mode and the traffic keys out. It touches no channel and no shared state, so it runs
 * on any thread: the handshake threads of {@link NoiseHandshakes}. noise-java cannot take another X25519, so this
 * is the Noise Protocol Framework's responder written out for this one pattern, on the JDK's crypto; the tests
 * hold its answers to noise-java's byte for byte.
 */
final class NoiseResponder {
    /** Message 1: the client's ephemeral key, then the sealed 3-byte payload. */
    private static final int FIRST_MESSAGE_MIN = X25519.KEY_BYTES + NoiseProtocol.TAG_BYTES;

    private NoiseResponder() {
    }

    /**
     * What the server sends and keeps once message 1 checks out.
     *
     * @param message    message 2, its 2-byte length in front
     * @param mode       how the client asked to be answered
     * @param sendKey    the server-to-client AES-GCM key
     * @param receiveKey the client-to-server AES-GCM key
     */
    record Answer(byte[] message, NoiseMode mode, byte[] sendKey, byte[] receiveKey) {
        /** Erases the keys: an answer that is not used, or once they are in their ciphers. */
        void destroy() {
            Arrays.fill(sendKey, (byte) 0);
            Arrays.fill(receiveKey, (byte) 0);
        }
    }

    /** Answers {@code message} (without its length field) as the holder of {@code key}, with a fresh ephemeral key. */
    static Answer respond(NoiseKeyPair key, byte[] message) throws NoiseException {
        KeyPair ephemeral;
        try {
            ephemeral = X25519.generate();
        } catch (GeneralSecurityException e) {
            throw new NoiseException("noise: cannot make an ephemeral key: " + e, e);
        }
        return respond(key, message, ephemeral);
    }

    /** As {@link #respond(NoiseKeyPair, byte[])} with the given ephemeral key: for tests against noise-java. */
    static Answer respond(NoiseKeyPair key, byte[] message, KeyPair ephemeral) throws NoiseException {
        SymmetricState state = null;
        byte[] payload;
        try {
            if (message.length < FIRST_MESSAGE_MIN) {
                throw new GeneralSecurityException(message.length + " bytes (expected: at least " + FIRST_MESSAGE_MIN + ")");
            }
            state = new SymmetricState(NoiseProtocol.NAME);
            state.mixHash(NoiseProtocol.PROLOGUE);
            // NK's pre-message: the static key the client pinned.
            state.mixHash(key.publicKey());
            // -> e, es
            byte[] remoteEphemeral = Arrays.copyOf(message, X25519.KEY_BYTES);
            state.mixHash(remoteEphemeral);
            state.mixKey(X25519.agree(key.staticKey(), remoteEphemeral));
            payload = state.decryptAndHash(message, X25519.KEY_BYTES, message.length - X25519.KEY_BYTES);
            NoiseMode mode = checkPayload(payload);
            // <- e, ee
            byte[] localEphemeral = X25519.encode(ephemeral.getPublic());
            state.mixHash(localEphemeral);
            state.mixKey(X25519.agree(ephemeral.getPrivate(), remoteEphemeral));
            byte[] tag = state.encryptAndHash(new byte[0]);
            byte[] answer = new byte[NoiseProtocol.LENGTH_BYTES + localEphemeral.length + tag.length];
            int length = answer.length - NoiseProtocol.LENGTH_BYTES;
            answer[0] = (byte) (length >>> 8);
            answer[1] = (byte) length;
            System.arraycopy(localEphemeral, 0, answer, NoiseProtocol.LENGTH_BYTES, localEphemeral.length);
            System.arraycopy(tag, 0, answer, NoiseProtocol.LENGTH_BYTES + localEphemeral.length, tag.length);
            byte[][] split = state.split();
            int keyBytes = payload[2];
            // The initiator sends with the first key: the server receives with it.
            Answer done = new Answer(answer, mode, NoiseProtocol.trafficKey(split[1], keyBytes),
                    NoiseProtocol.trafficKey(split[0], keyBytes));
            Arrays.fill(split[0], (byte) 0);
            Arrays.fill(split[1], (byte) 0);
            return done;
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new NoiseException("noise handshake failed: not a client of this key (" + e.getMessage() + ")", e);
        } finally {
            if (state != null) {
                state.destroy();
            }
        }
    }

    /** The client's payload: version 1, a mode, and a key length of 16 or 32 bytes. */
    private static NoiseMode checkPayload(byte[] payload) throws NoiseException {
        NoiseMode mode = payload.length == NoiseProtocol.CLIENT_PAYLOAD_BYTES && payload[0] == NoiseProtocol.VERSION
                ? NoiseMode.ofCode(payload[1]) : null;
        int keyBytes = payload.length == NoiseProtocol.CLIENT_PAYLOAD_BYTES ? payload[2] : 0;
        if (mode == null || keyBytes != 16 && keyBytes != 32) {
            throw new NoiseException("noise handshake failed: the client asked for " + Arrays.toString(payload)
                    + " (expected: version 1, mode 1 or 2, key bytes 16 or 32)");
        }
        return mode;
    }
}
