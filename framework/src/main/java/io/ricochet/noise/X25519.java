package io.ricochet.noise;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import javax.crypto.KeyAgreement;

/**
 * X25519 (RFC 7748) on the JDK's provider, for the server's side of the handshake: about 100 us of CPU an
 * operation where noise-java's took 170 us, and it refuses a peer key of small order (a shared secret of zeros)
 * rather than computing with it. Keys on the wire are 32 bytes, little-endian, as Noise and noise-java have them.
 */
final class X25519 {
    static final int KEY_BYTES = 32;
    /** The base point's u-coordinate: X25519(k, 9) is k's public key. */
    private static final byte[] BASE_POINT = new byte[KEY_BYTES];
    private static final BigInteger HIGH_BIT_MASK = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.ONE);

    static {
        BASE_POINT[0] = 9;
    }

    private X25519() {
    }

    /** The private key of a 32-byte scalar (clamped by X25519 itself, so any 32 bytes are a key). */
    static PrivateKey privateKey(byte[] scalar) throws GeneralSecurityException {
        return KeyFactory.getInstance("XDH").generatePrivate(new XECPrivateKeySpec(NamedParameterSpec.X25519, scalar));
    }

    /** The 32-byte public key of {@code key}. */
    static byte[] publicKey(PrivateKey key) throws GeneralSecurityException {
        return agree(key, BASE_POINT);
    }

    /** A fresh key pair from the provider's secure random source. */
    static KeyPair generate() throws GeneralSecurityException {
        return KeyPairGenerator.getInstance("X25519").generateKeyPair();
    }

    /** The 32 bytes of a public key the JDK made. */
    static byte[] encode(PublicKey key) {
        return littleEndian(((XECPublicKey) key).getU());
    }

    /**
     * The shared secret of {@code key} and the peer's 32-byte public key; fails with an {@code InvalidKeyException}
     * when the peer's key is of small order. The peer key's top bit is ignored, as RFC 7748 says.
     */
    static byte[] agree(PrivateKey key, byte[] peer) throws GeneralSecurityException {
        if (peer.length != KEY_BYTES) {
            throw new GeneralSecurityException("x25519 public key: " + peer.length + " bytes (expected: " + KEY_BYTES + ")");
        }
        byte[] bigEndian = new byte[KEY_BYTES];
        for (int i = 0; i < KEY_BYTES; i++) {
            bigEndian[i] = peer[KEY_BYTES - 1 - i];
        }
        BigInteger u = new BigInteger(1, bigEndian).and(HIGH_BIT_MASK);
        PublicKey peerKey = KeyFactory.getInstance("XDH").generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, u));
        KeyAgreement agreement = KeyAgreement.getInstance("XDH");
        agreement.init(key);
        agreement.doPhase(peerKey, true);
        return agreement.generateSecret();
    }

    private static byte[] littleEndian(BigInteger u) {
        byte[] bigEndian = u.toByteArray();
        byte[] out = new byte[KEY_BYTES];
        // toByteArray may carry a sign byte in front, or be shorter than 32 bytes.
        for (int i = 0; i < KEY_BYTES && i < bigEndian.length; i++) {
            out[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return out;
    }
}
