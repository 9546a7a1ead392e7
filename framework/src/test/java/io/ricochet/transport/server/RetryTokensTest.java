package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Retry tokens: valid only for the address, port and connection ID they were made for, within their lifetime. */
class RetryTokensTest {
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 40_000);
    private static final byte[] DCID = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

    private final AtomicLong now = new AtomicLong(1_000);
    private final RetryTokens tokens = new RetryTokens(now::get);
    private final ByteBuf token = Unpooled.buffer(tokens.maxTokenLength());

    @AfterEach
    void release() {
        token.release();
    }

    private void write(ByteBuf out, RetryTokens from, InetSocketAddress address) {
        ByteBuf dcid = Unpooled.wrappedBuffer(DCID);
        assertTrue(from.writeToken(out, dcid, address));
        assertEquals(DCID.length, dcid.readableBytes(), "the connection ID is read, not consumed");
    }

    @Test
    void aTokenValidatesForItsClientAndPointsAtTheOriginalConnectionId() {
        write(token, tokens, CLIENT);
        assertTrue(token.readableBytes() <= tokens.maxTokenLength(), token.readableBytes() + " bytes");
        int offset = tokens.validateToken(token, CLIENT);
        assertTrue(offset > 0, "valid: " + offset);
        assertArrayEquals(DCID, ByteBufUtil.getBytes(token, token.readerIndex() + offset, token.readableBytes() - offset));
    }

    @Test
    void anotherPortOrAddressIsRefused() {
        write(token, tokens, CLIENT);
        assertEquals(-1, tokens.validateToken(token, new InetSocketAddress("127.0.0.1", 40_001)));
        assertEquals(-1, tokens.validateToken(token, new InetSocketAddress("127.0.0.2", 40_000)));
    }

    @Test
    void anyChangedByteIsRefused() {
        write(token, tokens, CLIENT);
        for (int i = 0; i < token.readableBytes(); i++) {
            ByteBuf changed = token.copy();
            try {
                changed.setByte(i, changed.getByte(i) ^ 1);
                assertEquals(-1, tokens.validateToken(changed, CLIENT), "byte " + i + " changed");
            } finally {
                changed.release();
            }
        }
    }

    @Test
    void aTokenExpiresAfterItsLifetime() {
        write(token, tokens, CLIENT);
        now.addAndGet(RetryTokens.LIFETIME.toNanos());
        assertTrue(tokens.validateToken(token, CLIENT) > 0, "valid to the end of its lifetime");
        now.incrementAndGet();
        assertEquals(-1, tokens.validateToken(token, CLIENT));
    }

    @Test
    void anotherListenersTokenIsRefused() {
        write(token, new RetryTokens(now::get), CLIENT);
        assertEquals(-1, tokens.validateToken(token, CLIENT));
    }

    @Test
    void tokensTooShortOrTooLongAreRefused() {
        assertEquals(-1, tokens.validateToken(Unpooled.wrappedBuffer(new byte[39]), CLIENT));
        assertEquals(-1, tokens.validateToken(Unpooled.wrappedBuffer(new byte[tokens.maxTokenLength() + 1]), CLIENT));
    }

    @Test
    void aTokenIsReadWhereverItsReaderIndexIs() {
        token.writeZero(5).readerIndex(5);
        write(token, tokens, CLIENT);
        assertTrue(tokens.validateToken(token, CLIENT) > 0);
    }
}
