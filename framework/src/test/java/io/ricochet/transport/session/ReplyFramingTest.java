package io.ricochet.transport.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.Frames;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.testing.Transports;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.server.RicochetServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The length field is written in place only into buffers the framework handed out and still vouches for: a
 * received body answered while it is being handled, and a body from {@link FrameSession#allocateBody}. Any
 * other reply is framed without writing into it: a separate header buffer on TCP, a copy into one datagram on UDP.
 */
class ReplyFramingTest {
    private static final InetSocketAddress PEER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);
    private static final InetSocketAddress LOCAL = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    static Stream<Arguments> foreignReplies() {
        return Arrays.stream(ForeignReply.values())
                .flatMap(kind -> Arrays.stream(LengthField.values()).map(field -> Arguments.of(kind, field)));
    }

    static Stream<TransportKind> transports() {
        return Transports.available();
    }

    private EmbeddedChannel tcp(LengthField field, FrameHandler handler) {
        ServerConfig config = ServerConfig.builder().lengthField(field).build();
        return new EmbeddedChannel(new TcpChannelInitializer(config, () -> handler, TransportCounters.NONE,
                new ConnectionRegistry(Integer.MAX_VALUE), PipelineCustomizer.NONE));
    }

    /** Answers each frame with a copy in a body from {@code allocateBody}, kept in {@code allocated}. */
    private static FrameHandler copiesIntoAllocatedBodies(List<ByteBuf> allocated) {
        return (session, body) -> {
            ByteBuf reply = session.allocateBody(body.readableBytes()).writeBytes(body);
            body.release();
            allocated.add(reply);
            session.send(reply);
        };
    }

    private EmbeddedChannel udp(LengthField field, FrameHandler handler) {
        ConnectionStats stats = ConnectionStats.detached();
        return new EmbeddedChannel(new UdpSessionHandler(() -> handler, stats, field.width(), 1000,
                Duration.ofMinutes(1), new ConnectionBudget(16)));
    }

    private static DatagramPacket datagram(ByteBuf content) {
        return new DatagramPacket(content, LOCAL, PEER);
    }

    /** Every buffer the channel has written, in order; each released. */
    private static List<byte[]> drainTcp(EmbeddedChannel ch) {
        List<byte[]> written = new ArrayList<>();
        ByteBuf buf;
        while ((buf = ch.readOutbound()) != null) {
            written.add(ByteBufUtil.getBytes(buf));
            buf.release();
        }
        return written;
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static void releaseKept(List<ForeignReply.Reply> replies) {
        for (ForeignReply.Reply reply : replies) {
            if (reply.kept().refCnt() > 0) {
                reply.kept().release(reply.kept().refCnt());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("foreignReplies")
    void tcpFramesAForeignReplyWithASeparateHeaderAndLeavesTheCallersBufferUnchanged(ForeignReply kind,
            LengthField field) {
        int width = field.width();
        List<ForeignReply.Reply> replies = new ArrayList<>();
        EmbeddedChannel ch = tcp(field, (session, body) -> {
            ForeignReply.Reply reply = kind.reply(session.alloc(), width, body);
            replies.add(reply);
            session.send(reply.reply());
        });
        try {
            byte[] body = {1, 2, 3, 4, 5};
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(width, body)));
            assertEquals(1, replies.size());
            ByteBuf header = ch.readOutbound();
            ByteBuf sent = ch.readOutbound();
            try {
                assertNotNull(header, "a reply was written");
                assertEquals(width, header.readableBytes(), "a header buffer of its own, then the body as given");
                assertSame(replies.get(0).reply(), sent);
                assertArrayEquals(Frames.encode(width, body),
                        concat(List.of(ByteBufUtil.getBytes(header), ByteBufUtil.getBytes(sent))));
            } finally {
                if (header != null) {
                    header.release();
                }
                if (sent != null) {
                    sent.release();
                }
            }
            assertNull(ch.readOutbound());
            assertNull(replies.get(0).checkAndRelease());
        } finally {
            ch.finishAndReleaseAll();
            releaseKept(replies);
        }
    }

    @ParameterizedTest
    @MethodSource("foreignReplies")
    void udpCopiesAForeignReplyIntoItsDatagramAndLeavesTheCallersBufferUnchanged(ForeignReply kind,
            LengthField field) {
        int width = field.width();
        List<ForeignReply.Reply> replies = new ArrayList<>();
        EmbeddedChannel ch = udp(field, (session, body) -> {
            ForeignReply.Reply reply = kind.reply(session.alloc(), width, body);
            replies.add(reply);
            session.send(reply.reply());
        });
        try {
            byte[] body = {1, 2, 3, 4, 5};
            ch.writeInbound(datagram(Unpooled.wrappedBuffer(Frames.encode(width, body))));
            assertEquals(1, replies.size());
            DatagramPacket sent = ch.readOutbound();
            assertNotNull(sent, "a reply was sent");
            try {
                assertEquals(PEER, sent.recipient());
                assertNotSame(replies.get(0).reply(), sent.content(), "the reply is copied into the datagram");
                assertArrayEquals(Frames.encode(width, body), ByteBufUtil.getBytes(sent.content()));
            } finally {
                sent.release();
            }
            assertNull(ch.readOutbound());
            assertNull(replies.get(0).checkAndRelease());
        } finally {
            ch.finishAndReleaseAll();
            releaseKept(replies);
        }
    }

    /** Counts every buffer allocated through it. */
    private static final class CountingAllocator extends PooledByteBufAllocator {
        final AtomicInteger allocations = new AtomicInteger();

        CountingAllocator() {
            super(true);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            allocations.incrementAndGet();
            return super.newDirectBuffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            allocations.incrementAndGet();
            return super.newHeapBuffer(initialCapacity, maxCapacity);
        }
    }

    static Stream<Arguments> fieldsAndReadBuffers() {
        return Arrays.stream(LengthField.values())
                .flatMap(field -> Stream.of(Arguments.of(field, false), Arguments.of(field, true)));
    }

    @ParameterizedTest
    @MethodSource("fieldsAndReadBuffers")
    void tcpAnswersAReceivedBodyInPlaceAsOneBufferAllocatingNothing(LengthField field, boolean direct) {
        // A plain handler that reverses the body it is given and sends it back: framed in place, one buffer a frame.
        FrameHandler perFrame = (session, body) -> {
            ReverseEcho.reverse(body);
            session.send(body);
        };
        answerInPlace(field, direct, perFrame, false);
    }

    @ParameterizedTest
    @MethodSource("fieldsAndReadBuffers")
    void tcpAnswersAWholeReadInPlaceAsOneBufferAllocatingNothing(LengthField field, boolean direct) {
        answerInPlace(field, direct, new ReverseEcho(), true);
    }

    private void answerInPlace(LengthField field, boolean direct, FrameHandler handler, boolean oneRun) {
        int width = field.width();
        EmbeddedChannel ch = tcp(field, handler);
        CountingAllocator alloc = new CountingAllocator();
        ch.config().setAllocator(alloc);
        try {
            byte[][] bodies = {Frames.body(1, 1), Frames.body(7, 2), Frames.body(64, 3)};
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (byte[] body : bodies) {
                wire.writeBytes(Frames.encode(width, body));
                expected.writeBytes(Frames.encode(width, Frames.reversed(body)));
            }
            byte[] bytes = wire.toByteArray();
            // A pooled direct buffer, as a socket read gives, or a heap one.
            ByteBuf read = direct ? PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes)
                    : Unpooled.wrappedBuffer(bytes);
            long readAddress = direct ? read.memoryAddress() : 0;
            ch.writeInbound(read);
            int offset = 0;
            for (int i = 0; i < (oneRun ? 1 : bodies.length); i++) {
                ByteBuf out = ch.readOutbound();
                int length = oneRun ? bytes.length : width + bodies[i].length;
                try {
                    assertArrayEquals(Arrays.copyOfRange(expected.toByteArray(), offset, offset + length),
                            ByteBufUtil.getBytes(out), "one buffer holds the whole " + (oneRun ? "read" : "frame"));
                    boolean sameMemory = direct ? out.hasMemoryAddress() && out.memoryAddress() == readAddress + offset
                            : out.hasArray() && out.array() == bytes && out.arrayOffset() == offset;
                    assertTrue(sameMemory, "the received bytes themselves, not a copy");
                } finally {
                    out.release();
                }
                offset += length;
            }
            assertNull(ch.readOutbound());
            assertEquals(0, alloc.allocations.get(), "buffers allocated to answer");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    /**
     * Two connections of one listener, the second's frame read while the first's is in hand (its handler feeds the
     * second): each is answered in place, from its own read buffer. A per-frame framing holds the frame in hand, so
     * each connection has its own; one shared by the listener (d214ded) let the second's read take the first's place.
     */
    @Test
    void eachConnectionOfAListenerHoldsItsOwnFrameInHand() {
        ServerConfig config = ServerConfig.builder().build();
        EmbeddedChannel[] second = new EmbeddedChannel[1];
        byte[] secondWire = Frames.encode(2, Frames.body(5, 9));
        byte[] secondReply = Frames.encode(2, Frames.reversed(Frames.body(5, 9)));
        FrameHandler handler = (session, body) -> {
            if (body.readableBytes() == 3 && second[0] != null) {
                // The first connection's frame is in hand: the second connection reads one meanwhile.
                second[0].writeInbound(Unpooled.wrappedBuffer(secondWire));
            }
            ReverseEcho.reverse(body);
            session.send(body);
        };
        TcpChannelInitializer listener = new TcpChannelInitializer(config, () -> handler, TransportCounters.NONE,
                new ConnectionRegistry(Integer.MAX_VALUE), PipelineCustomizer.NONE);
        EmbeddedChannel first = new EmbeddedChannel(listener);
        second[0] = new EmbeddedChannel(listener);
        CountingAllocator alloc = new CountingAllocator();
        first.config().setAllocator(alloc);
        second[0].config().setAllocator(alloc);
        try {
            byte[] firstWire = Frames.encode(2, Frames.body(3, 8));
            byte[] firstReply = Frames.encode(2, Frames.reversed(Frames.body(3, 8)));
            first.writeInbound(Unpooled.wrappedBuffer(firstWire));
            for (EmbeddedChannel ch : List.of(first, second[0])) {
                ByteBuf out = ch.readOutbound();
                try {
                    assertArrayEquals(ch == first ? firstReply : secondReply, ByteBufUtil.getBytes(out));
                    assertTrue(out.hasArray() && out.array() == (ch == first ? firstWire : secondWire),
                            "answered in place, from its own read");
                } finally {
                    out.release();
                }
            }
            assertEquals(0, alloc.allocations.get(), "buffers allocated to answer (a header: not framed in place)");
        } finally {
            first.finishAndReleaseAll();
            second[0].finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void tcpWritesABodyFromAllocateBodyAsOneBuffer(LengthField field) {
        int width = field.width();
        List<ByteBuf> allocated = new ArrayList<>();
        EmbeddedChannel ch = tcp(field, copiesIntoAllocatedBodies(allocated));
        try {
            byte[] body = Frames.body(9, 4);
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(width, body)));
            ByteBuf out = ch.readOutbound();
            try {
                assertSame(allocated.get(0), out, "the allocated body carries its own header");
                assertArrayEquals(Frames.encode(width, body), ByteBufUtil.getBytes(out));
            } finally {
                out.release();
            }
            assertNull(ch.readOutbound());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void tcpFramesAReceivedBodyRepliedAfterItsReadWithASeparateHeader(LengthField field) {
        int width = field.width();
        AtomicReference<FrameSession> session = new AtomicReference<>();
        AtomicReference<ByteBuf> kept = new AtomicReference<>();
        EmbeddedChannel ch = tcp(field, (s, body) -> {
            session.set(s);
            kept.set(body);
        });
        try {
            byte[] body = Frames.body(5, 5);
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(width, body)));
            session.get().send(kept.get());
            // Sent outside a read batch: flushed by a task queued behind it.
            ch.runPendingTasks();
            List<byte[]> written = drainTcp(ch);
            assertEquals(2, written.size(), "header, then body");
            assertArrayEquals(Frames.encode(width, body), concat(written));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void udpAnswersAReceivedBodyInPlace(LengthField field) {
        int width = field.width();
        EmbeddedChannel ch = udp(field, new ReverseEcho());
        try {
            byte[] body = Frames.body(33, 6);
            ByteBuf received = Unpooled.wrappedBuffer(Frames.encode(width, body));
            ch.writeInbound(datagram(received));
            DatagramPacket sent = ch.readOutbound();
            try {
                assertSame(received, sent.content(), "the received datagram's buffer is the reply");
                assertArrayEquals(Frames.encode(width, Frames.reversed(body)), ByteBufUtil.getBytes(sent.content()));
            } finally {
                sent.release();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void udpSendsABodyFromAllocateBodyWithoutACopy(LengthField field) {
        int width = field.width();
        List<ByteBuf> allocated = new ArrayList<>();
        EmbeddedChannel ch = udp(field, copiesIntoAllocatedBodies(allocated));
        try {
            byte[] body = Frames.body(12, 7);
            ch.writeInbound(datagram(Unpooled.wrappedBuffer(Frames.encode(width, body))));
            DatagramPacket sent = ch.readOutbound();
            try {
                assertSame(allocated.get(0), sent.content());
                assertArrayEquals(Frames.encode(width, body), ByteBufUtil.getBytes(sent.content()));
            } finally {
                sent.release();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void udpCopiesAReceivedBodyRepliedAfterItsRead(LengthField field) {
        int width = field.width();
        AtomicReference<FrameSession> session = new AtomicReference<>();
        AtomicReference<ByteBuf> kept = new AtomicReference<>();
        EmbeddedChannel ch = udp(field, (s, body) -> {
            session.set(s);
            kept.set(body);
        });
        try {
            byte[] body = Frames.body(5, 8);
            ch.writeInbound(datagram(Unpooled.wrappedBuffer(Frames.encode(width, body))));
            ByteBuf later = kept.get();
            session.get().send(later);
            DatagramPacket sent = ch.readOutbound();
            try {
                assertNotSame(later, sent.content());
                assertArrayEquals(Frames.encode(width, body), ByteBufUtil.getBytes(sent.content()));
            } finally {
                sent.release();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    /**
     * Answers each frame with the {@link ForeignReply} its first body byte names, the body unchanged, and checks the
     * caller's buffer once the reply has left: {@code problems} collects what changed, {@code checked} counts.
     */
    private static FrameHandler foreignReplier(int width, Queue<String> problems, AtomicInteger checked) {
        return (session, body) -> {
            ForeignReply kind = ForeignReply.values()[body.getByte(body.readerIndex())];
            ForeignReply.Reply reply = kind.reply(session.alloc(), width, body);
            session.send(reply.reply(), () -> {
                String problem = reply.checkAndRelease();
                if (problem != null) {
                    problems.add(kind + ": " + problem);
                }
                checked.incrementAndGet();
            });
        };
    }

    private static byte[] bodyFor(ForeignReply kind) {
        byte[] body = Frames.body(40, kind.ordinal());
        body[0] = (byte) kind.ordinal();
        return body;
    }

    @Timeout(30)
    @ParameterizedTest
    @MethodSource("transports")
    void tcpPeerGetsEveryForeignReplyIntactAndTheCallersBuffersStayUnchanged(TransportKind transport)
            throws IOException {
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicInteger checked = new AtomicInteger();
        ServerConfig config = TestServers.config(transport).udpPort(ServerConfig.DISABLED).build();
        int width = config.lengthField().width();
        try (RicochetServer server = TestServers.start(config, foreignReplier(width, problems, checked), registry);
                FrameClient client = new FrameClient(server.tcpAddress(), width)) {
            for (ForeignReply kind : ForeignReply.values()) {
                client.send(bodyFor(kind));
                assertArrayEquals(bodyFor(kind), client.receive(), kind.name());
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> checked.get() == ForeignReply.values().length);
            assertEquals(List.of(), List.copyOf(problems));
        }
    }

    @Timeout(30)
    @ParameterizedTest
    @MethodSource("transports")
    void udpPeerGetsEveryForeignReplyIntactAndTheCallersBuffersStayUnchanged(TransportKind transport)
            throws IOException {
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicInteger checked = new AtomicInteger();
        ServerConfig config = TestServers.config(transport).tcpPort(ServerConfig.DISABLED).build();
        int width = config.lengthField().width();
        try (RicochetServer server = TestServers.start(config, foreignReplier(width, problems, checked), registry);
                DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            socket.setSoTimeout(5000);
            for (ForeignReply kind : ForeignReply.values()) {
                byte[] request = Frames.encode(width, bodyFor(kind));
                socket.send(new java.net.DatagramPacket(request, request.length, server.udpAddress()));
                java.net.DatagramPacket reply = new java.net.DatagramPacket(new byte[1024], 1024);
                socket.receive(reply);
                assertArrayEquals(request, Arrays.copyOf(reply.getData(), reply.getLength()), kind.name());
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> checked.get() == ForeignReply.values().length);
            assertEquals(List.of(), List.copyOf(problems));
        }
    }
}
