package io.ricochet.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.testing.Frames;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.testing.Meters;
import org.junit.jupiter.api.Test;

/** The handler alone, client and server on embedded channels, the bytes carried between them by hand. */
class NoiseHandlerTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    @Test
    void anEmptyWriteCompletesAfterTheWritesBeforeItAndAloneAtOnce() {
        EmbeddedChannel[] pair = handshaken(NoiseMode.STREAM);
        EmbeddedChannel client = pair[0];
        // Alone: a marker with nothing to seal before it.
        ChannelFuture alone = client.writeAndFlush(Unpooled.EMPTY_BUFFER);
        assertTrue(alone.isSuccess(), "a lone empty write did not complete");
        // After a frame: it completes with the sealed message, not before and not never.
        ChannelFuture frame = client.write(Unpooled.wrappedBuffer(Frames.encode(2, new byte[] {1, 2, 3})));
        ChannelFuture marker = client.write(Unpooled.EMPTY_BUFFER);
        assertFalse(marker.isDone(), "the marker completed before the frame was sealed");
        client.flush();
        assertTrue(frame.isSuccess());
        assertTrue(marker.isSuccess(), "the marker after a frame never completed");
        carry(client, pair[1]);
        ByteBuf plain = pair[1].readInbound();
        assertArrayEquals(Frames.encode(2, new byte[] {1, 2, 3}), ByteBufUtil.getBytes(plain));
        plain.release();
        closeBoth(pair);
    }

    /** A client may write as soon as it is connected, as over TLS: the frame waits for the keys, then goes out sealed. */
    @Test
    void aWriteBeforeTheHandshakeIsSentSealedAfterIt() {
        EmbeddedChannel client = new EmbeddedChannel(NoiseHandler.client(
                ClientNoiseConfig.builder(KEY.publicKey()).build(), 2, Meters.tcpStats()));
        EmbeddedChannel server = new EmbeddedChannel(NoiseHandler.server(NoiseHandshakes.inline(ServerNoiseConfig.of(KEY), HandshakeCounters.NONE), 2, Meters.tcpStats()));
        ChannelFuture early = client.writeAndFlush(Unpooled.wrappedBuffer(Frames.encode(2, new byte[] {9, 8})));
        assertFalse(early.isDone(), "written before there were keys to seal it with");
        carry(client, server);
        carry(server, client);
        assertTrue(early.isSuccess(), "the early write was not sent after the handshake");
        carry(client, server);
        ByteBuf plain = server.readInbound();
        assertArrayEquals(Frames.encode(2, new byte[] {9, 8}), ByteBufUtil.getBytes(plain));
        plain.release();
        closeBoth(new EmbeddedChannel[] {client, server});
    }

    @Test
    void packageModeSealsEachFrameAlone() {
        EmbeddedChannel[] pair = handshaken(NoiseMode.PACKAGE);
        EmbeddedChannel client = pair[0];
        // Two frames in one buffer, and one frame split over two writes.
        byte[] two = concat(Frames.encode(2, new byte[] {1}), Frames.encode(2, new byte[] {2, 2}));
        byte[] third = Frames.encode(2, new byte[] {3, 3, 3});
        client.write(Unpooled.wrappedBuffer(two));
        client.write(Unpooled.wrappedBuffer(third, 0, 3));
        client.write(Unpooled.wrappedBuffer(third, 3, third.length - 3));
        client.flush();
        int messages = 0;
        for (ByteBuf out; (out = client.readOutbound()) != null; ) {
            for (int at = out.readerIndex(); at < out.writerIndex(); at += 2 + out.getUnsignedShort(at)) {
                messages++;
            }
            pair[1].writeInbound(out);
        }
        assertTrue(messages == 3, "messages: " + messages + " (expected: one per frame)");
        for (byte[] expected : new byte[][] {Frames.encode(2, new byte[] {1}), Frames.encode(2, new byte[] {2, 2}), third}) {
            ByteBuf plain = pair[1].readInbound();
            assertArrayEquals(expected, ByteBufUtil.getBytes(plain));
            plain.release();
        }
        assertNull(pair[1].readInbound());
        closeBoth(pair);
    }

    /** Regression: a write holding part of a frame was reported done before any of it was sealed. */
    @Test
    void inPackageModeAWriteOfPartOfAFrameCompletesOnlyWithItsFrame() {
        EmbeddedChannel[] pair = handshaken(NoiseMode.PACKAGE);
        EmbeddedChannel client = pair[0];
        byte[] frame = Frames.encode(2, new byte[] {5, 6, 7, 8});
        ChannelFuture head = client.writeAndFlush(Unpooled.wrappedBuffer(frame, 0, 3));
        assertFalse(head.isDone(), "part of a frame was reported written before it was sealed");
        assertNull(client.readOutbound());
        ChannelFuture rest = client.writeAndFlush(Unpooled.wrappedBuffer(frame, 3, frame.length - 3));
        assertTrue(head.isSuccess() && rest.isSuccess());
        carry(client, pair[1]);
        ByteBuf plain = pair[1].readInbound();
        assertArrayEquals(frame, ByteBufUtil.getBytes(plain));
        plain.release();
        closeBoth(pair);
    }

    /** Fail closed: a message the handler cannot seal is refused, never sent as it is. */
    @Test
    void aWriteThatIsNotABufferIsRefused() {
        EmbeddedChannel[] pair = handshaken(NoiseMode.STREAM);
        io.netty.buffer.ByteBufHolder holder = new io.netty.buffer.DefaultByteBufHolder(Unpooled.wrappedBuffer(new byte[] {1}));
        ChannelFuture refused = pair[0].writeAndFlush(holder);
        assertInstanceOf(NoiseException.class, refused.cause());
        assertNull(pair[0].readOutbound());
        assertEquals(0, holder.refCnt());
        closeBoth(pair);
    }

    /** A client and a server whose handshake is done, in {@code mode} with 256-bit keys. */
    static EmbeddedChannel[] handshaken(NoiseMode mode) {
        EmbeddedChannel client = new EmbeddedChannel(NoiseHandler.client(
                ClientNoiseConfig.builder(KEY.publicKey()).mode(mode).build(), 2, Meters.tcpStats()));
        EmbeddedChannel server = new EmbeddedChannel(NoiseHandler.server(NoiseHandshakes.inline(ServerNoiseConfig.of(KEY), HandshakeCounters.NONE), 2, Meters.tcpStats()));
        carry(client, server);
        carry(server, client);
        assertTrue(client.pipeline().get(NoiseHandler.class).handshakeFuture().isSuccess(), "client handshake");
        assertTrue(server.pipeline().get(NoiseHandler.class).handshakeFuture().isSuccess(), "server handshake");
        return new EmbeddedChannel[] {client, server};
    }

    private static void carry(EmbeddedChannel from, EmbeddedChannel to) {
        for (ByteBuf out; (out = from.readOutbound()) != null; ) {
            to.writeInbound(out);
        }
    }

    private static void closeBoth(EmbeddedChannel[] pair) {
        pair[0].finishAndReleaseAll();
        pair[1].finishAndReleaseAll();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
