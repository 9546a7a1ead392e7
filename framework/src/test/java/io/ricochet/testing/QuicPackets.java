package io.ricochet.testing;

import java.util.Arrays;

/**
 * Reads the unprotected parts of QUIC long-header packets (RFC 9000, 17.2) in tests: lengths and connection IDs, which
 * header protection does not cover, so no keys are needed.
 */
public final class QuicPackets {
    private QuicPackets() {
    }

    /** The connection ID a long-header packet at the start of {@code datagram} is sent to. */
    public static byte[] destinationConnectionId(byte[] datagram) {
        int length = datagram[5] & 0xff;
        return Arrays.copyOfRange(datagram, 6, 6 + length);
    }

    /** The connection ID the sender of the long-header packet at the start of {@code datagram} chose. */
    public static byte[] sourceConnectionId(byte[] datagram) {
        int at = 6 + (datagram[5] & 0xff);
        return Arrays.copyOfRange(datagram, at + 1, at + 1 + (datagram[at] & 0xff));
    }

    /**
     * The length of the Initial, 0-RTT or Handshake packet at the start of {@code datagram}: a client's padding after
     * it is not part of it.
     */
    public static int length(byte[] datagram) {
        int at = 6 + (datagram[5] & 0xff);
        at += 1 + (datagram[at] & 0xff);
        if ((datagram[0] & 0x30) == 0) {
            long[] token = varint(datagram, at);
            at = (int) (token[1] + token[0]);
        }
        long[] length = varint(datagram, at);
        return (int) (length[1] + length[0]);
    }

    /** {value, offset after it} of the variable-length integer at {@code at} (RFC 9000, 16). */
    private static long[] varint(byte[] bytes, int at) {
        int size = 1 << ((bytes[at] & 0xff) >> 6);
        long value = bytes[at] & 0x3f;
        for (int i = 1; i < size; i++) {
            value = (value << 8) | (bytes[at + i] & 0xff);
        }
        return new long[] {value, at + size};
    }
}
