package io.ricochet.noise;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Noise Protocol Framework's SymmetricState (revision 34, section 5.2) for SHA-256 and AESGCM, on the JDK's
 * SHA-256, HMAC and AES-GCM: the chaining key, the handshake hash and the handshake's cipher key. The responder
 * runs on it; the tests hold it to noise-java's byte for byte. Not thread-safe: one handshake's, on one thread.
 */
final class SymmetricState {
    static final int HASH_BYTES = 32;

    private final MessageDigest sha256;
    private final Mac hmac;
    private final Cipher aesGcm;
    private final byte[] ck;
    private final byte[] h;
    private byte[] k;
    private long n;

    SymmetricState(String protocolName) throws GeneralSecurityException {
        sha256 = MessageDigest.getInstance("SHA-256");
        hmac = Mac.getInstance("HmacSHA256");
        aesGcm = Cipher.getInstance("AES/GCM/NoPadding");
        byte[] name = protocolName.getBytes(StandardCharsets.US_ASCII);
        // A name of at most HASHLEN bytes is the hash itself, padded with zeros.
        h = name.length <= HASH_BYTES ? Arrays.copyOf(name, HASH_BYTES) : sha256.digest(name);
        ck = h.clone();
    }

    void mixHash(byte[] data) {
        mixHash(data, 0, data.length);
    }

    void mixHash(byte[] data, int offset, int length) {
        sha256.update(h);
        sha256.update(data, offset, length);
        digestInto(h);
    }

    /** ck, k = HKDF(ck, ikm); the nonce starts again at 0. */
    void mixKey(byte[] ikm) throws GeneralSecurityException {
        byte[][] out = hkdf(ck, ikm);
        System.arraycopy(out[0], 0, ck, 0, HASH_BYTES);
        Arrays.fill(out[0], (byte) 0);
        if (k != null) {
            Arrays.fill(k, (byte) 0);
        }
        k = out[1];
        n = 0;
    }

    /** The ciphertext of {@code plaintext} (with its tag) under k and the hash, which it is then mixed into. */
    byte[] encryptAndHash(byte[] plaintext) throws GeneralSecurityException {
        aesGcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k, "AES"), new GCMParameterSpec(128, nonce(n++)));
        aesGcm.updateAAD(h);
        byte[] ciphertext = aesGcm.doFinal(plaintext);
        mixHash(ciphertext);
        return ciphertext;
    }

    /** The plaintext of {@code length} bytes of ciphertext; an {@code AEADBadTagException} if it fails its tag. */
    byte[] decryptAndHash(byte[] message, int offset, int length) throws GeneralSecurityException {
        aesGcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(k, "AES"), new GCMParameterSpec(128, nonce(n++)));
        aesGcm.updateAAD(h);
        byte[] plaintext = aesGcm.doFinal(message, offset, length);
        mixHash(message, offset, length);
        return plaintext;
    }

    /** The two cipher keys of Split(): the initiator's sending key first. Erases this state. */
    byte[][] split() throws GeneralSecurityException {
        byte[][] keys = hkdf(ck, new byte[0]);
        destroy();
        return keys;
    }

    void destroy() {
        Arrays.fill(ck, (byte) 0);
        Arrays.fill(h, (byte) 0);
        if (k != null) {
            Arrays.fill(k, (byte) 0);
        }
    }

    /** Noise's HKDF with two outputs: HMAC-SHA256 as the PRF. */
    private byte[][] hkdf(byte[] chainingKey, byte[] ikm) throws GeneralSecurityException {
        hmac.init(new SecretKeySpec(chainingKey, "HmacSHA256"));
        byte[] tempKey = hmac.doFinal(ikm);
        hmac.init(new SecretKeySpec(tempKey, "HmacSHA256"));
        byte[] first = hmac.doFinal(new byte[] {1});
        hmac.update(first);
        byte[] second = hmac.doFinal(new byte[] {2});
        Arrays.fill(tempKey, (byte) 0);
        return new byte[][] {first, second};
    }

    private void digestInto(byte[] out) {
        try {
            sha256.digest(out, 0, HASH_BYTES);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException("sha-256 into 32 bytes", e);
        }
    }

    /** AESGCM's nonce: 4 zero bytes, then the counter big-endian. */
    static byte[] nonce(long counter) {
        byte[] iv = new byte[12];
        for (int i = 0; i < 8; i++) {
            iv[11 - i] = (byte) (counter >>> (8 * i));
        }
        return iv;
    }
}
