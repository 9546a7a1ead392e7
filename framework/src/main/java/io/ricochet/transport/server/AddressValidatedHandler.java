package io.ricochet.transport.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.quic.QuicChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * First in a server QUIC connection's pipeline: tells {@link UnvalidatedAddresses} when the connection shows that its
 * client receives at its address, and when it closes, then leaves the pipeline. That is when its handshake completes
 * (the client's Handshake packets decrypted, RFC 9000, 8.1), or at once when the connection exists only for a valid
 * Retry token. A packet's type alone would not do: anyone can send a Handshake-type header from a forged address.
 * One per connection; it runs on the connection's event loop, which is its socket's.
 */
final class AddressValidatedHandler extends ChannelInboundHandlerAdapter {
    private final UnvalidatedAddresses addresses;
    private final boolean validatedAtConnection;
    private boolean done;

    AddressValidatedHandler(UnvalidatedAddresses addresses, boolean validatedAtConnection) {
        this.addresses = addresses;
        this.validatedAtConnection = validatedAtConnection;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (validatedAtConnection) {
            validated(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        validated(ctx);
        ctx.fireChannelActive();
    }

    private void validated(ChannelHandlerContext ctx) {
        SocketAddress remote = ((QuicChannel) ctx.channel()).remoteSocketAddress();
        if (done || !(remote instanceof InetSocketAddress address)) {
            return;
        }
        done = true;
        addresses.validated(address);
        ctx.channel().closeFuture().addListener(f -> addresses.released(address));
        ctx.pipeline().remove(this);
    }
}
