package io.ricochet.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;

/** What QUIC's two ends share: flow-control windows, the largest datagram, and how a QUIC socket reads. */
public final class QuicSockets {
    /**
     * Unread bytes a peer may send on one stream, and on all of a connection's streams together: the same on both
     * ends, so neither waits on the other.
     */
    public static final long STREAM_WINDOW = 256 * 1024;
    public static final long CONNECTION_WINDOW = 4 * 1024 * 1024;

    /**
     * The largest datagram either side accepts (QUIC's {@code max_udp_payload_size}): an Ethernet MTU's worth, so
     * reads can take {@value #DATAGRAMS_PER_READ} datagrams a call into one buffer.
     */
    public static final int MAX_UDP_PAYLOAD = 1500;

    private static final int DATAGRAMS_PER_READ = 16;

    private QuicSockets() {
    }

    /** A datagram socket for QUIC on {@code loop}, reading several datagrams a call where it can (epoll, io_uring). */
    public static Bootstrap datagramBootstrap(EventLoop loop, IoTransport transport) {
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(transport.datagramChannel());
        ChannelOption<Integer> batched = transport.maxDatagramPayloadOption();
        if (batched != null) {
            bootstrap.option(batched, MAX_UDP_PAYLOAD)
                    .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_UDP_PAYLOAD
                            * DATAGRAMS_PER_READ));
        }
        return bootstrap;
    }

}
