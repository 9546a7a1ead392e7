package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.transport.client.FrameClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A FrameClient's UDP socket: whole frames each way, one per datagram, on the client's own event loops. */
@Timeout(30)
class FrameClientDatagramTest {

    static java.util.stream.Stream<TransportKind> transports() {
        return io.ricochet.testing.Transports.available();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aDatagramFrameIsAnsweredByOneDatagram(TransportKind transport) throws Exception {
        BlockingQueue<String> replies = new ArrayBlockingQueue<>(4);
        try (RicochetServer server = TestServers.echo(TestServers.config(transport).tcpPort(ServerConfig.DISABLED).build(),
                new SimpleMeterRegistry());
                FrameClient client = FrameClient.builder().transport(transport, 1).build()) {
            Channel ch = client.connectDatagram(server.udpAddress(), null, null, new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ByteBuf content = msg instanceof DatagramPacket p ? p.content() : (ByteBuf) msg;
                    try {
                        replies.add(content.toString(StandardCharsets.US_ASCII));
                    } finally {
                        content.release();
                    }
                }
            }, 0).syncUninterruptibly().channel();
            ByteBuf frame = Unpooled.buffer().writeShort(5).writeBytes("hello".getBytes(StandardCharsets.US_ASCII));
            ch.writeAndFlush(frame).syncUninterruptibly();
            assertEquals("\0\5olleh", replies.poll(10, TimeUnit.SECONDS), "the frame reversed, its length field kept");
            assertEquals(1, client.openConnections());
        }
    }

    @Test
    void aClientWithTlsHasNoDatagrams() {
        try (FrameClient client = FrameClient.builder().tls(ClientTlsConfig.builder().insecure().build().build())
                .build()) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> client.connectDatagram(
                    new java.net.InetSocketAddress("127.0.0.1", 9), null, null, new ChannelInboundHandlerAdapter(), 0));
            assertEquals("connectDatagram: a client with TLS, Noise or QUIC (expected: a plain one)", e.getMessage());
        }
    }
}
