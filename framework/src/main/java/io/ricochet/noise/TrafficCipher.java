package io.ricochet.noise;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * One direction of the channel: AES-GCM with the JDK's intrinsics, on direct buffers (on arrays JDK 17 copies the
 * whole array when input and output share one, as pooled heap buffers do: 90 us a message), and Noise's nonce, a counter the peer never
 * sends (4 zero bytes, then the counter big-endian). A replayed, dropped, reordered or altered message meets the
 * wrong nonce or key and fails its tag.
 */
final class TrafficCipher {
    private final Cipher cipher;
    private final SecretKeySpec key;
    private final int direction;
    private final byte[] iv = new byte[12];
    private long nonce;

    private TrafficCipher(byte[] key, int direction) throws GeneralSecurityException {
        this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        this.key = new SecretKeySpec(key, "AES");
        this.direction = direction;
    }

    static TrafficCipher sealing(byte[] key) throws GeneralSecurityException {
        return new TrafficCipher(key, Cipher.ENCRYPT_MODE);
    }

    static TrafficCipher opening(byte[] key) throws GeneralSecurityException {
        return new TrafficCipher(key, Cipher.DECRYPT_MODE);
    }

    /** Seals {@code plain} into {@code sealed}: the ciphertext, then the 16-byte tag. */
    void seal(ByteBuffer plain, ByteBuffer sealed) throws GeneralSecurityException {
        next();
        cipher.doFinal(plain, sealed);
    }

    /** Opens {@code sealed} into {@code plain}; an {@code AEADBadTagException} when it is not the next message. */
    void open(ByteBuffer sealed, ByteBuffer plain) throws GeneralSecurityException {
        next();
        cipher.doFinal(sealed, plain);
    }

    private void next() throws GeneralSecurityException {
        // The derivation nonce is never a message's, and a counter that would reach it ends the connection.
        if (nonce == Long.MAX_VALUE) {
            throw new GeneralSecurityException("noise: nonces exhausted");
        }
        long n = nonce++;
        for (int i = 0; i < 8; i++) {
            iv[11 - i] = (byte) (n >>> (8 * i));
        }
        cipher.init(direction, key, new GCMParameterSpec(NoiseProtocol.TAG_BYTES * 8, iv));
    }
}
