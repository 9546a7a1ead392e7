package io.ricochet.transport.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ConnectTimeoutException;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.Transports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client times its connects itself (Netty's option kept a cancelled timer on every channel for its life): a
 * connect that does not complete fails with a {@link ConnectTimeoutException} after the client's timeout, on both
 * connect paths, and its channel is closed. A listener whose accept queue is full drops every SYN, so a connect to it
 * hangs until timed out.
 */
class ConnectTimeoutTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    static Stream<TransportKind> transports() {
        return Transports.available();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aConnectThatHangsFailsAfterTheTimeoutOnBothPaths(TransportKind transport) throws Exception {
        List<Socket> queued = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             FrameClient client = FrameClient.builder().transport(transport, 1).connectTimeout(TIMEOUT).build()) {
            InetSocketAddress address = (InetSocketAddress) full.getLocalSocketAddress();
            fill(full, queued);

            long start = System.nanoTime();
            ExecutionException session = assertThrows(ExecutionException.class,
                    () -> client.connect(address).get(10, TimeUnit.SECONDS));
            assertInstanceOf(ConnectTimeoutException.class, session.getCause());
            assertTrue(System.nanoTime() - start >= TIMEOUT.toNanos() - TimeUnit.MILLISECONDS.toNanos(50),
                    "failed before the timeout: " + session.getCause());

            ChannelFuture bare = client.connect(address, null, null, new ChannelInboundHandlerAdapter());
            assertTrue(bare.await(10, TimeUnit.SECONDS), "never timed out");
            assertInstanceOf(ConnectTimeoutException.class, bare.cause());
            assertTrue(bare.channel().closeFuture().await(10, TimeUnit.SECONDS), "the channel stayed open");
            assertFalse(bare.channel().isOpen());
        } finally {
            for (Socket s : queued) {
                s.close();
            }
        }
    }

    /** Connects until a connect times out: the accept queue is then full, and the kernel drops further SYNs. */
    private static void fill(ServerSocket full, List<Socket> queued) throws IOException {
        for (int i = 0; i < 16; i++) {
            Socket s = new Socket();
            queued.add(s);
            try {
                s.connect(full.getLocalSocketAddress(), 200);
            } catch (SocketTimeoutException e) {
                return;
            }
        }
        throw new IllegalStateException("16 connects to a backlog of 1 went through: the queue never filled");
    }
}
