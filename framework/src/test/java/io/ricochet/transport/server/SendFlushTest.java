package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.session.FrameHandler;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sends made outside a read batch (from a timer or another thread) are flushed by one task queued behind them, at
 * least every 64 writes, and at once when the channel turns unwritable.
 */
@Timeout(30)
class SendFlushTest {

    @ParameterizedTest(name = "{0} sends of {1} B, high watermark {2} B")
    @CsvSource({
        "3, 4, 65536, 0, 1",
        "65, 4, 65536, 1, 2",
        // Unflushed bytes count toward writability: a send that passes the watermark is flushed at once, so a peer
        // that reads is not taken for one that does not.
        "3, 100, 64, 3, 3"})
    void sendsOutsideAReadBatchShareAFlushQueuedBehindThem(int sends, int size, int highWatermark,
            int flushesDuringTheTask, int flushesInAll) throws Exception {
        AtomicInteger flushes = new AtomicInteger();
        CompletableFuture<Integer> duringTheTask = new CompletableFuture<>();
        FrameHandler sendsLater = (session, body) -> {
            body.release();
            // One task on the loop, as a timer's: a flush queued behind it runs only after it.
            session.eventLoop().execute(() -> {
                for (int i = 0; i < sends; i++) {
                    ByteBuf reply = session.allocateBody(size).writeInt(i).writeZero(size - 4);
                    session.send(reply);
                }
                duringTheTask.complete(flushes.get());
            });
        };
        ServerConfig config = TestServers.config(TransportKind.NIO).udpPort(ServerConfig.DISABLED)
                .writeBufferWatermarks(1, highWatermark).build();
        try (RicochetServer server = RicochetServer.builder().config(config).handler(sendsLater)
                .pipeline(ch -> ch.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void flush(ChannelHandlerContext ctx) {
                        flushes.incrementAndGet();
                        ctx.flush();
                    }
                })).meterRegistry(new SimpleMeterRegistry()).build().startAndAwait();
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.send(new byte[] {1});
            for (int i = 0; i < sends; i++) {
                byte[] reply = client.receive();
                assertEquals(size, reply.length, "reply " + i);
                assertArrayEquals(new byte[] {0, 0, (byte) (i >> 8), (byte) i}, Arrays.copyOf(reply, 4), "reply " + i);
            }
            assertEquals(flushesDuringTheTask, duringTheTask.get(10, TimeUnit.SECONDS));
            assertEquals(flushesInAll, flushes.get());
        }
    }
}
