package io.ricochet.transport.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.codec.FrameRun;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.MeterNames;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.server.RicochetServer;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The in-place path of an {@link InPlaceFrameHandler}: a read's frames answered as one run. */
@Timeout(30)
class InPlaceBatchTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    static java.util.stream.Stream<TransportKind> transports() {
        return io.ricochet.testing.Transports.available();
    }

    private static byte[] frames(int count) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            wire.writeBytes(Frames.encode(2, Frames.body(1 + i % 90, i)));
        }
        return wire.toByteArray();
    }

    @Test
    void aReadsFramesGoDownstreamAsOneRunAndComeBackAsOneWrite() {
        EmbeddedChannel ch = new EmbeddedChannel(new TcpChannelInitializer(TestServers.config(TransportKind.NIO).build(),
                ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10), PipelineCustomizer.NONE));
        ch.writeInbound(ch.alloc().buffer().writeBytes(frames(16)));
        ByteBuf reply = ch.readOutbound();
        try {
            byte[] bytes = new byte[reply.readableBytes()];
            reply.readBytes(bytes);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int i = 0; i < 16; i++) {
                expected.writeBytes(Frames.encode(2, Frames.reversed(Frames.body(1 + i % 90, i))));
            }
            assertArrayEquals(expected.toByteArray(), bytes, "16 replies in one buffer, in order");
            assertNull(ch.readOutbound(), "one write for the whole read");
        } finally {
            reply.release();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aReadArrivingWhileTheLastRunIsUnwrittenLeavesThatRunIntact() {
        EmbeddedChannel ch = new EmbeddedChannel(new TcpChannelInitializer(TestServers.config(TransportKind.NIO).build(),
                ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10), PipelineCustomizer.NONE));
        byte[] wire = frames(20);
        int cut = wire.length / 2 + 1;
        // Nothing is read outbound between the two: the first run is still held when the second read cumulates.
        ch.writeInbound(ch.alloc().buffer().writeBytes(wire, 0, cut));
        ch.writeInbound(ch.alloc().buffer().writeBytes(wire, cut, wire.length - cut));
        ByteArrayOutputStream replies = new ByteArrayOutputStream();
        for (ByteBuf out; (out = ch.readOutbound()) != null; ) {
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            out.release();
            replies.writeBytes(bytes);
        }
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 20; i++) {
            expected.writeBytes(Frames.encode(2, Frames.reversed(Frames.body(1 + i % 90, i))));
        }
        assertArrayEquals(expected.toByteArray(), replies.toByteArray());
        ch.finishAndReleaseAll();
    }

    @Test
    void aHandlerReplacedUnderItsOwnNameTurnsRunsOff() {
        List<Object> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new TcpChannelInitializer(TestServers.config(TransportKind.NIO).build(),
                ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10), channel ->
                channel.pipeline().replace(PipelineCustomizer.BACKPRESSURE, PipelineCustomizer.BACKPRESSURE, new Spy(seen))));
        ch.writeInbound(ch.alloc().buffer().writeBytes(frames(2)));
        assertEquals(2, seen.size(), "one body per frame: " + seen);
        ch.finishAndReleaseAll();
    }

    @Test
    void aHandlerPlacedBetweenDecoderAndSessionStillSeesOneBodyPerFrame() {
        List<Object> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new TcpChannelInitializer(TestServers.config(TransportKind.NIO).build(),
                ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10), channel ->
                channel.pipeline().addBefore(PipelineCustomizer.SESSION, "spy", new Spy(seen))));
        ch.writeInbound(ch.alloc().buffer().writeBytes(frames(3)));
        assertEquals(3, seen.size());
        seen.forEach(m -> assertInstanceOf(ByteBuf.class, m, "not a FrameRun: the customizer's handler reads frames"));
        for (int i = 0; i < 3; i++) {
            ByteBuf reply = ch.readOutbound();
            byte[] bytes = new byte[reply.readableBytes()];
            reply.readBytes(bytes);
            reply.release();
            assertArrayEquals(Frames.encode(2, Frames.reversed(Frames.body(1 + i, i))), bytes);
        }
        ch.finishAndReleaseAll();
    }

    @Test
    void aCustomizerThatDeclaresItKeepsFrameRunsGetsThemWithItsHandlerInPlace() {
        List<Object> seen = new ArrayList<>();
        List<String> said = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new TcpChannelInitializer(TestServers.config(TransportKind.NIO).build(),
                ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10),
                PipelineCustomizer.keepingFrameRuns(channel ->
                        channel.pipeline().addBefore(PipelineCustomizer.SESSION, "spy", new Spy(seen))),
                null, null, null, said::add));
        ch.writeInbound(ch.alloc().buffer().writeBytes(frames(3)));
        assertEquals(List.of("run"), seen, "one run for the read, passed through the customizer's handler");
        ByteBuf reply = ch.readOutbound();
        assertEquals(frames(3).length, reply.readableBytes(), "answered as one write");
        reply.release();
        assertNull(ch.readOutbound());
        assertEquals(List.of(), aboutFraming(said));
        ch.finishAndReleaseAll();
    }

    @Test
    void aCustomizerThatDoesNotDeclareItIsSaidOncePerListenerAndFramesOneByOne() {
        List<String> said = new ArrayList<>();
        TcpChannelInitializer listener = new TcpChannelInitializer(TestServers.config(TransportKind.NIO).build(),
                ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10), channel -> { }, null, null, null,
                said::add);
        for (int connection = 0; connection < 2; connection++) {
            List<Object> seen = new ArrayList<>();
            EmbeddedChannel ch = new EmbeddedChannel(listener);
            ch.pipeline().addBefore(PipelineCustomizer.SESSION, "spy", new Spy(seen));
            ch.writeInbound(ch.alloc().buffer().writeBytes(frames(2)));
            assertEquals(2, seen.size(), "one body per frame: " + seen);
            ch.finishAndReleaseAll();
        }
        List<String> framing = aboutFraming(said);
        assertEquals(1, framing.size(), "one line for the listener, not one per connection: " + said);
        assertTrue(framing.get(0).startsWith("ReverseEcho answers in place, but frame by frame here"), framing.get(0));
    }

    /** What the listener said about its framing, not about its stages (FusedStagesTest). */
    private static List<String> aboutFraming(List<String> said) {
        return said.stream().filter(line -> !line.startsWith("connections run the idle timeout")).toList();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void countsEveryFrameOfARunBothWays(TransportKind transport) throws Exception {
        try (RicochetServer server = TestServers.echo(TestServers.config(transport).udpPort(ServerConfig.DISABLED).build(),
                registry); FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.sendRaw(frames(500));
            for (int i = 0; i < 500; i++) {
                assertArrayEquals(Frames.reversed(Frames.body(1 + i % 90, i)), client.receive(), "frame " + i);
            }
            await().atMost(5, TimeUnit.SECONDS).until(() ->
                    Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_PROTOCOL, "tcp") == 500.0);
            assertEquals(500.0, Meters.count(registry, MeterNames.FRAMES_RECEIVED, MeterNames.TAG_PROTOCOL, "tcp"));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aRewriteThatFailsAnswersTheFramesBeforeItThenCloses(TransportKind transport) throws Exception {
        InPlaceFrameHandler failsOnZero = (buf, index, length) -> {
            if (buf.getByte(index) == 0) {
                throw new IllegalStateException("refused");
            }
            ReverseEcho.reverse(buf.slice(index, length));
        };
        try (RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED)
                .build(), failsOnZero, registry); FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            wire.writeBytes(Frames.encode(2, new byte[] {1, 2}));
            wire.writeBytes(Frames.encode(2, new byte[] {3, 4}));
            wire.writeBytes(Frames.encode(2, new byte[] {0, 5}));
            wire.writeBytes(Frames.encode(2, new byte[] {6, 7}));
            client.sendRaw(wire.toByteArray());
            assertArrayEquals(new byte[] {2, 1}, client.receive());
            assertArrayEquals(new byte[] {4, 3}, client.receive());
            assertTrue(client.isClosedByServer(), "nothing after the failed frame, then the end of stream");
            await().atMost(5, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "error") == 1.0);
            // As on the per-frame path: the failed frame was taken, the one after it came after the close began.
            assertEquals(3.0, Meters.count(registry, MeterNames.FRAMES_RECEIVED, MeterNames.TAG_PROTOCOL, "tcp"));
            assertEquals(2.0, Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_PROTOCOL, "tcp"));
        }
    }

    /** Records what reaches it, and passes it on. */
    private static final class Spy extends ChannelInboundHandlerAdapter {
        private final List<Object> seen;

        Spy(List<Object> seen) {
            this.seen = seen;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            seen.add(msg instanceof FrameRun ? "run" : msg);
            ctx.fireChannelRead(msg);
        }
    }
}
