package io.ricochet.transport.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.quic.QuicChannel;
import io.ricochet.metrics.TransportCounters;
import java.net.InetSocketAddress;

/**
 * Behind {@link QuicInitialSizeHandler}, in front of the QUIC server codec on its datagram socket: sends an address it
 * has not validated at most three times what it received from there (RFC 9000, 8.1). Bytes each way are counted per
 * address ({@link UnvalidatedAddresses}), and a datagram that would pass that is dropped instead of sent, a loss to the
 * QUIC stack, counted {@code reason=amplification_limit}. quiche keeps a count of its own, but leaves out the zeros it
 * pads each datagram carrying an Initial with: its probes on timeout resend the Initial, about 170 bytes padded to
 * 1,200, and passed its limit. An Initial from a new address while the table is full is dropped, so that the table
 * stays bounded, counted {@code reason=unvalidated_limit}.
 *
 * <p>An address is validated once a datagram from it is addressed to a connection ID the server chose and sent it
 * (RFC 9000, 8.1: the listener draws its IDs at random, so only a client that receives there knows one); or once a
 * connection from it completes its handshake, or, with Retry, once a connection is made for it at all, since the codec
 * makes one only for a valid token ({@link #watching}). With Retry no address enters the table at all: the codec
 * answers an Initial without a valid token with a Retry, about a tenth of its size, and with no state, so an address
 * that has not shown a token is sent nothing that needs a limit, and forged Initials cannot fill the table and keep
 * real clients' Initials out. One instance per socket: it is stateful, and runs on the
 * socket's event loop with the connections' handlers. While no address awaits validation a datagram costs it a look at
 * its first bytes; it allocates nothing per datagram.
 */
final class QuicAmplificationLimiter extends ChannelDuplexHandler {
    /** Where a long header's destination connection ID length is, the ID after it, then the source ID's length. */
    private static final int DESTINATION_ID = QuicInitialSizeHandler.LONG_HEADER_PREFIX;
    private static final int QUIC_V1 = QuicInitialSizeHandler.QUIC_V1;
    private static final int LONG_HEADER = QuicInitialSizeHandler.LONG_HEADER;
    private static final int TYPE_BITS = QuicInitialSizeHandler.TYPE_BITS;

    private final UnvalidatedAddresses addresses;
    private final TransportCounters counters;
    private final boolean validatedAtConnection;

    /**
     * @param retry whether the listener answers an Initial without a token with a Retry, so that every connection has
     *              shown one
     */
    QuicAmplificationLimiter(UnvalidatedAddresses addresses, TransportCounters counters, boolean retry) {
        this.addresses = addresses;
        this.counters = counters;
        this.validatedAtConnection = retry;
    }

    /** The socket's handler: {@code initialSize}, this limiter, then {@code codec}. */
    ChannelHandler between(ChannelHandler initialSize, ChannelHandler codec) {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(initialSize, QuicAmplificationLimiter.this, codec);
            }
        };
    }

    /** The connections' handler: one that says when a connection validates its address, then {@code handler}. */
    ChannelHandler watching(ChannelHandler handler) {
        return new ChannelInitializer<QuicChannel>() {
            @Override
            protected void initChannel(QuicChannel ch) {
                ch.pipeline().addLast(new AddressValidatedHandler(addresses, validatedAtConnection), handler);
            }
        };
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf content = packet.content();
        int size = content.readableBytes();
        int reader = content.readerIndex();
        boolean longHeader = size > 0 && (content.getUnsignedByte(reader) & LONG_HEADER) != 0;
        boolean v1 = longHeader && size > DESTINATION_ID && content.getInt(reader + 1) == QUIC_V1;
        boolean initial = v1 && (content.getUnsignedByte(reader) & TYPE_BITS) == 0;
        InetSocketAddress sender = packet.sender();
        if (!addresses.received(sender, size, initial && !validatedAtConnection)) {
            packet.release();
            counters.droppedAtUnvalidatedLimit();
            return;
        }
        if (v1) {
            addresses.echoed(sender, content, reader + DESTINATION_ID + 1,
                    content.getUnsignedByte(reader + DESTINATION_ID));
        } else if (!longHeader && size > 1) {
            addresses.echoed(sender, content, reader + 1, -1);
        }
        ctx.fireChannelRead(packet);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof DatagramPacket packet) {
            ByteBuf content = packet.content();
            InetSocketAddress recipient = packet.recipient();
            if (!addresses.trySend(recipient, content.readableBytes())) {
                packet.release();
                counters.droppedAtAmplificationLimit();
                // Done, as for a datagram the network drops: failing the write would read as the socket failing.
                promise.trySuccess();
                return;
            }
            serverChose(recipient, content);
        }
        ctx.write(msg, promise);
    }

    /** A version 1 long header's source connection ID: the server's choice (in Version Negotiation, the client's). */
    private void serverChose(InetSocketAddress recipient, ByteBuf content) {
        int reader = content.readerIndex();
        int end = content.writerIndex();
        if (end - reader <= DESTINATION_ID || (content.getUnsignedByte(reader) & LONG_HEADER) == 0
                || content.getInt(reader + 1) != QUIC_V1) {
            return;
        }
        int source = reader + DESTINATION_ID + 1 + content.getUnsignedByte(reader + DESTINATION_ID);
        if (source < end) {
            addresses.serverChose(recipient, content, source + 1,
                    Math.min(content.getUnsignedByte(source), end - source - 1));
        }
    }
}
