package io.ricochet.noise;

import java.util.HexFormat;
import java.util.List;

/**
 * The X25519 public keys of small order (as libsodium lists them), whose shared secret does not depend on the
 * other side's private key. noise-java does not refuse them, so a client refuses to pin one.
 */
final class LowOrderPoints {
    private static final List<byte[]> POINTS = List.of(
            point("0000000000000000000000000000000000000000000000000000000000000000"),
            point("0100000000000000000000000000000000000000000000000000000000000000"),
            point("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
            point("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
            point("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
            point("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
            point("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"));

    private LowOrderPoints() {
    }

    /** Whether {@code key}, its top bit ignored as X25519 ignores it, is one of them. */
    static boolean contains(byte[] key) {
        byte[] masked = key.clone();
        masked[31] &= 0x7f;
        for (byte[] point : POINTS) {
            if (java.util.Arrays.equals(point, masked)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] point(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
