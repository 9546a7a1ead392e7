package io.ricochet.noise;

import com.southernstorm.noise.protocol.CipherState;
import com.southernstorm.noise.protocol.HandshakeState;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** The constants of Ricochet's Noise channel (docs/protocol.md, "The Noise channel") and the steps noise-java leaves to us. */
final class NoiseProtocol {
    static final String NAME = "Noise_NK_25519_AESGCM_SHA256";
    /** Bound into the handshake hash: a peer speaking another version of the channel fails the handshake. */
    static final byte[] PROLOGUE = "ricochet-noise/1".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    /** The client's first handshake payload: version, mode, traffic key length in bytes. */
    static final int CLIENT_PAYLOAD_BYTES = 3;
    /** Every message on the wire has a 2-byte big-endian length before it. */
    static final int LENGTH_BYTES = 2;
    static final int MAX_MESSAGE = 65_535;
    static final int TAG_BYTES = 16;
    static final int MAX_PLAINTEXT = MAX_MESSAGE - TAG_BYTES;
    /** NK's messages are 51 and 48 bytes with our payloads; anything longer is not this channel. */
    static final int MAX_HANDSHAKE_MESSAGE = 128;
    /**
     * The nonce that derives the traffic keys, never used for a message: noise-java's counter stops below it. It is
     * Noise's REKEY (ENCRYPT at the last nonce, of zeros) at the highest nonce that noise-java's signed counter allows.
     */
    private static final long DERIVATION_NONCE = Long.MAX_VALUE;

    private NoiseProtocol() {
    }

    static HandshakeState newHandshake(int role) {
        try {
            HandshakeState handshake = new HandshakeState(NAME, role);
            handshake.setPrologue(PROLOGUE, 0, PROLOGUE.length);
            return handshake;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("noise-java has no " + NAME, e);
        }
    }

    /**
     * One direction's AES-GCM key of {@code keyBytes} (16 or 32): the first bytes of Noise's split key encrypting
     * zeros at the derivation nonce. Noise's own AESGCM keys are 256-bit; this gives FPNN's 128-bit choice too,
     * and both modes one cipher path.
     */
    static byte[] trafficKey(CipherState split, int keyBytes) throws GeneralSecurityException {
        byte[] zeros = new byte[keyBytes];
        byte[] sealed = new byte[keyBytes + split.getMACLength()];
        split.setNonce(DERIVATION_NONCE);
        split.encryptWithAd(null, zeros, 0, sealed, 0, keyBytes);
        byte[] key = Arrays.copyOf(sealed, keyBytes);
        Arrays.fill(sealed, (byte) 0);
        return key;
    }

    /** {@link #trafficKey(CipherState, int)} from Split()'s raw 32-byte key, on the JDK's AES-GCM: the responder's. */
    static byte[] trafficKey(byte[] splitKey, int keyBytes) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(splitKey, "AES"),
                new GCMParameterSpec(TAG_BYTES * 8, SymmetricState.nonce(DERIVATION_NONCE)));
        byte[] sealed = cipher.doFinal(new byte[keyBytes]);
        byte[] key = Arrays.copyOf(sealed, keyBytes);
        Arrays.fill(sealed, (byte) 0);
        return key;
    }
}
