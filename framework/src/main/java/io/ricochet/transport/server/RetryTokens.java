package io.ricochet.transport.server;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.quic.QuicTokenHandler;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * QUIC Retry tokens that only this listener can make (RFC 9000, 8.1.2): an Initial without a token is answered with a
 * Retry whose token binds the client's address and port and the connection ID it chose, signed with HMAC-SHA256 under
 * a key drawn when the listener starts, and valid for {@link #LIFETIME}. A client shows the token back only if it
 * received the Retry at its source address, so a connection, and its place under the cap, costs a real address a
 * round trip rather than one spoofed packet.
 *
 * <p>A token is {@code expiry (8 bytes) | MAC (32) | original connection ID (up to 20)}. One instance serves one
 * listener's socket, on its event loop, so its buffers are reused without locks.
 */
final class RetryTokens implements QuicTokenHandler {
    static final Duration LIFETIME = Duration.ofSeconds(10);
    private static final String ALGORITHM = "HmacSHA256";
    private static final int EXPIRY_BYTES = Long.BYTES;
    private static final int MAC_BYTES = 32;
    private static final int HEADER = EXPIRY_BYTES + MAC_BYTES;
    /** RFC 9000, 17.2: a connection ID is at most 20 bytes. */
    private static final int MAX_CONNECTION_ID = 20;

    private final Mac mac;
    private final LongSupplier nanoClock;
    private final byte[] expected = new byte[MAC_BYTES];
    private final byte[] connectionId = new byte[MAX_CONNECTION_ID];

    /** @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime}) */
    RetryTokens(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("QUIC Retry: " + ALGORITHM + " is not available: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean writeToken(ByteBuf out, ByteBuf dcid, InetSocketAddress address) {
        int length = dcid.readableBytes();
        dcid.getBytes(dcid.readerIndex(), connectionId, 0, length);
        long expiry = nanoClock.getAsLong() + LIFETIME.toNanos();
        sign(expiry, address, length);
        out.writeLong(expiry).writeBytes(expected).writeBytes(connectionId, 0, length);
        return true;
    }

    /** Where the original connection ID starts in {@code token}, or -1 unless it is one of ours for {@code address}. */
    @Override
    public int validateToken(ByteBuf token, InetSocketAddress address) {
        int start = token.readerIndex();
        int length = token.readableBytes() - HEADER;
        if (length < 0 || length > MAX_CONNECTION_ID) {
            return -1;
        }
        long expiry = token.getLong(start);
        // Compared as a difference, so the monotonic clock's wrap cannot matter.
        if (nanoClock.getAsLong() - expiry > 0) {
            return -1;
        }
        token.getBytes(start + HEADER, connectionId, 0, length);
        sign(expiry, address, length);
        int differences = 0;
        for (int i = 0; i < MAC_BYTES; i++) {
            differences |= expected[i] ^ token.getByte(start + EXPIRY_BYTES + i);
        }
        return differences == 0 ? HEADER : -1;
    }

    @Override
    public int maxTokenLength() {
        return HEADER + MAX_CONNECTION_ID;
    }

    /** The MAC of the expiry, the address and port, and the first {@code length} bytes of connectionId, in expected. */
    private void sign(long expiry, InetSocketAddress address, int length) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            mac.update((byte) (expiry >>> shift));
        }
        byte[] ip = address.getAddress().getAddress();
        mac.update((byte) ip.length);
        mac.update(ip);
        mac.update((byte) (address.getPort() >>> 8));
        mac.update((byte) address.getPort());
        mac.update(connectionId, 0, length);
        try {
            mac.doFinal(expected, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        }
    }
}
