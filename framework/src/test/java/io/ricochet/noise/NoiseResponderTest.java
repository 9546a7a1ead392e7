package io.ricochet.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.southernstorm.noise.protocol.CipherStatePair;
import com.southernstorm.noise.protocol.DHState;
import com.southernstorm.noise.protocol.HandshakeState;
import com.southernstorm.noise.protocol.Noise;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The server's handshake on the JDK's crypto, held to noise-java's: the same secrets, the same bytes on the wire. */
class NoiseResponderTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of(NoiseMode.PACKAGE, 16), Arguments.of(NoiseMode.PACKAGE, 32),
                Arguments.of(NoiseMode.STREAM, 16), Arguments.of(NoiseMode.STREAM, 32));
    }

    /**
     * Public keys and shared secrets as noise-java computes them, for peer keys past p too. A peer key with the top bit
     * set is one RFC 7748 says to read with the bit cleared, as the JDK does; noise-java does not (no real client's key
     * has it set: a public key is below p).
     */
    @Test
    void x25519AgreesWithNoiseJava() throws Exception {
        Random random = new Random(31);
        for (int i = 0; i < 200; i++) {
            byte[] scalar = new byte[32];
            random.nextBytes(scalar);
            DHState theirs = Noise.createDH("25519");
            theirs.setPrivateKey(scalar, 0);
            byte[] expectedPublic = new byte[32];
            theirs.getPublicKey(expectedPublic, 0);
            PrivateKey ours = X25519.privateKey(scalar);
            assertArrayEquals(expectedPublic, X25519.publicKey(ours), "public key of scalar " + i);

            byte[] peer = new byte[32];
            random.nextBytes(peer);
            peer[31] &= 0x7f;
            if (i % 4 == 0) {
                // Non-canonical: u in [p + 2, 2^255), reduced mod p (p and p + 1 are of small order).
                Arrays.fill(peer, 1, 31, (byte) 0xff);
                peer[0] = (byte) (0xef + random.nextInt(0x11));
                peer[31] = 0x7f;
            }
            DHState peerKey = Noise.createDH("25519");
            peerKey.setPublicKey(peer, 0);
            byte[] expectedSecret = new byte[32];
            theirs.calculate(expectedSecret, 0, peerKey);
            assertArrayEquals(expectedSecret, X25519.agree(ours, peer), "secret with peer key " + HexFormat.of().formatHex(peer));
            byte[] topBitSet = peer.clone();
            topBitSet[31] |= (byte) 0x80;
            assertArrayEquals(expectedSecret, X25519.agree(ours, topBitSet), "the top bit is ignored");
        }
    }

    /** With the same ephemeral key, message 2 and both traffic keys are noise-java's responder's, byte for byte. */
    @ParameterizedTest
    @MethodSource("modes")
    void answersAsNoiseJavaDoes(NoiseMode mode, int keyBytes) throws Exception {
        byte[] first = firstMessage(mode, keyBytes);
        KeyPair ephemeral = X25519.generate();
        byte[] ephemeralScalar = ((java.security.interfaces.XECPrivateKey) ephemeral.getPrivate()).getScalar().orElseThrow();

        HandshakeState reference = NoiseProtocol.newHandshake(HandshakeState.RESPONDER);
        reference.getLocalKeyPair().setPrivateKey(KEY.privateKey(), 0);
        reference.getFixedEphemeralKey().setPrivateKey(ephemeralScalar, 0);
        reference.start();
        byte[] payload = new byte[128];
        assertEquals(3, reference.readMessage(first, 0, first.length, payload, 0));
        byte[] expected = new byte[128];
        int length = reference.writeMessage(expected, 0, new byte[0], 0, 0);
        CipherStatePair split = reference.split();

        NoiseResponder.Answer answer = NoiseResponder.respond(KEY, first, ephemeral);
        assertArrayEquals(RawNoiseClient.withLength(Arrays.copyOf(expected, length)), answer.message());
        assertEquals(mode, answer.mode());
        assertArrayEquals(NoiseProtocol.trafficKey(split.getSender(), keyBytes), answer.sendKey());
        assertArrayEquals(NoiseProtocol.trafficKey(split.getReceiver(), keyBytes), answer.receiveKey());
    }

    /** An ephemeral key of small order makes a secret anyone knows: refused before anything is decrypted. */
    @ParameterizedTest
    @ValueSource(strings = {
            "0000000000000000000000000000000000000000000000000000000000000000",
            "0100000000000000000000000000000000000000000000000000000000000000",
            "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
            "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "0000000000000000000000000000000000000000000000000000000000000080"})
    void refusesAnEphemeralKeyOfSmallOrder(String point) {
        byte[] first = new byte[51];
        System.arraycopy(HexFormat.of().parseHex(point), 0, first, 0, 32);
        NoiseException e = assertThrows(NoiseException.class, () -> NoiseResponder.respond(KEY, first));
        assertTrue(e.getMessage().startsWith("noise handshake failed: not a client of this key"), e.getMessage());
    }

    @Test
    void refusesAMessageForAnotherKeyOrTooShort() throws Exception {
        byte[] first = firstMessage(NoiseMode.PACKAGE, 32);
        assertThrows(NoiseException.class, () -> NoiseResponder.respond(NoiseKeyPair.generate(), first));
        NoiseException e = assertThrows(NoiseException.class, () -> NoiseResponder.respond(KEY, Arrays.copyOf(first, 47)));
        assertEquals("noise handshake failed: not a client of this key (47 bytes (expected: at least 48))", e.getMessage());
    }

    @Test
    void refusesAPayloadItDoesNotSpeak() throws Exception {
        HandshakeState client = initiator();
        byte[] message = new byte[128];
        int length = client.writeMessage(message, 0, new byte[] {1, 1, 24}, 0, 3);
        NoiseException e = assertThrows(NoiseException.class,
                () -> NoiseResponder.respond(KEY, Arrays.copyOf(message, length)));
        assertEquals("noise handshake failed: the client asked for [1, 1, 24] (expected: version 1, mode 1 or 2, key bytes "
                + "16 or 32)", e.getMessage());
    }

    /** Keys written by the noise-java version of {@link NoiseKeyPair} give the same public key now. */
    @Test
    void aKeyPairIsNoiseJavasPair() throws Exception {
        DHState theirs = Noise.createDH("25519");
        theirs.generateKeyPair();
        byte[] scalar = new byte[32];
        theirs.getPrivateKey(scalar, 0);
        byte[] expected = new byte[32];
        theirs.getPublicKey(expected, 0);
        assertArrayEquals(expected, NoiseKeyPair.fromPrivateKey(scalar).publicKey());
    }

    private static byte[] firstMessage(NoiseMode mode, int keyBytes) throws Exception {
        HandshakeState client = initiator();
        byte[] message = new byte[128];
        int length = client.writeMessage(message, 0, new byte[] {1, (byte) mode.code(), (byte) keyBytes}, 0, 3);
        return Arrays.copyOf(message, length);
    }

    private static HandshakeState initiator() {
        HandshakeState client = NoiseProtocol.newHandshake(HandshakeState.INITIATOR);
        client.getRemotePublicKey().setPublicKey(KEY.publicKey(), 0);
        client.start();
        return client;
    }
}
