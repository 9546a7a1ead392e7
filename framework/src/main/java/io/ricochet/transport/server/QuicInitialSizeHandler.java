package io.ricochet.transport.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.metrics.TransportCounters;

/**
 * In front of the QUIC server codec on its datagram socket: drops, unanswered, a datagram under
 * {@value #MIN_INITIAL_DATAGRAM} bytes whose first packet is an Initial, or a long header of a version other than 1
 * (which the codec would answer with Version Negotiation), as RFC 9000 requires (14.1, 5.2.2). Answered, a short
 * Initial comes back three times over to whatever address it names. quiche leaves the check to its caller
 * (cloudflare/quiche#2648), and Netty's codec does not make it. Counted {@code reason=short_initial}. The codec makes
 * connections only for a datagram whose first packet is an Initial, so the first packet is the one to look at.
 */
@Sharable
final class QuicInitialSizeHandler extends ChannelInboundHandlerAdapter {
    /** RFC 9000, 14.1: a client's Initial travels in a datagram of at least this many bytes. */
    static final int MIN_INITIAL_DATAGRAM = 1200;
    static final int QUIC_V1 = 1;
    static final int LONG_HEADER = 0x80;
    static final int TYPE_BITS = 0x30;
    /** A long header's first byte and version. */
    static final int LONG_HEADER_PREFIX = 5;

    private final TransportCounters counters;

    QuicInitialSizeHandler(TransportCounters counters) {
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof DatagramPacket packet && opensConnectionShort(packet.content())) {
            packet.release();
            counters.droppedShortInitial();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private static boolean opensConnectionShort(ByteBuf content) {
        int size = content.readableBytes();
        if (size == 0 || size >= MIN_INITIAL_DATAGRAM) {
            return false;
        }
        int reader = content.readerIndex();
        int first = content.getUnsignedByte(reader);
        if ((first & LONG_HEADER) == 0) {
            return false;
        }
        return size < LONG_HEADER_PREFIX || content.getInt(reader + 1) != QUIC_V1 || (first & TYPE_BITS) == 0;
    }
}
