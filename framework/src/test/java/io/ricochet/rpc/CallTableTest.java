package io.ricochet.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The call table against a session that records what it is sent, on an event loop of the test's. */
@Timeout(30)
class CallTableTest {

    /** A cancel that lands after the call is in the table but before its request is written. */
    @Test
    void aCancelRacingTheStartOfACallGoesOutAfterItsRequest() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            RecordingSession session = new RecordingSession(loop);
            RpcConnection connection = new RpcConnection(RpcConfig.DEFAULTS, new RequestRouter(new RpcDispatcher(), null),
                    RpcMetrics.client(null, "t", RpcConfig.DEFAULTS), RpcMetrics.server(null, "t", RpcConfig.DEFAULTS),
                    Duration.ZERO, false, null, c -> { }, c -> { }, c -> { });
            FrameHandler handler = connection.frameHandler();
            loop.submit(() -> {
                handler.sessionOpened(session);
                // The peer pings, so it is one that is told of cancels.
                handler.onFrame(session, encode(Envelope.newBuilder().setKind(Kind.REQUEST).setMethod(RpcConnection.PING)
                        .build()));
            }).get(10, TimeUnit.SECONDS);
            AtomicReference<CompletableFuture<ByteString>> call = new AtomicReference<>();
            // Draining, owesReplies counts this end's pending calls: it tells when the call is in the table.
            session.draining = true;
            // Once the call is in the table, the next look at the loop (its deadline timer) cancels it.
            session.onEventLoop = () -> {
                CompletableFuture<ByteString> started = call.get();
                if (started != null && !started.isDone() && handler.owesReplies(session)) {
                    started.cancel(false);
                }
            };
            CountDownLatch release = new CountDownLatch(1);
            loop.execute(() -> awaitQuietly(release));
            call.set(connection.call("slow", ByteString.EMPTY, Duration.ofSeconds(30)));
            release.countDown();
            loop.submit(() -> { }).get(10, TimeUnit.SECONDS);
            List<Kind> sent = session.sent.stream().filter(e -> e.getKind() != Kind.RESPONSE).map(Envelope::getKind)
                    .toList();
            assertTrue(call.get().isCancelled());
            assertEquals(List.of(Kind.REQUEST, Kind.CANCEL), sent);
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static ByteBuf encode(Envelope envelope) {
        return UnpooledByteBufAllocator.DEFAULT.buffer().writeBytes(envelope.toByteArray());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Decodes and keeps every frame sent; runs {@link #onEventLoop} whenever its event loop is asked for. */
    private static final class RecordingSession implements FrameSession {
        final List<Envelope> sent = new CopyOnWriteArrayList<>();
        final EventLoop loop;
        volatile Runnable onEventLoop = () -> { };
        volatile boolean draining;

        RecordingSession(EventLoop loop) {
            this.loop = loop;
        }

        @Override
        public void send(ByteBuf body) {
            send(body, null);
        }

        @Override
        public void send(ByteBuf body, Runnable whenDone) {
            try {
                sent.add(EnvelopeCodec.decode(body));
            } catch (InvalidProtocolBufferException e) {
                throw new UncheckedIOException(e);
            }
            if (whenDone != null) {
                whenDone.run();
            }
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public long unansweredFrames() {
            return 0;
        }

        @Override
        public boolean isDraining() {
            return draining;
        }

        @Override
        public ByteBuf allocateBody(int capacity) {
            return UnpooledByteBufAllocator.DEFAULT.buffer(capacity);
        }

        @Override
        public ByteBufAllocator alloc() {
            return UnpooledByteBufAllocator.DEFAULT;
        }

        @Override
        public EventLoop eventLoop() {
            onEventLoop.run();
            return loop;
        }

        @Override
        public SocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 1);
        }

        @Override
        public Protocol protocol() {
            return Protocol.TCP;
        }

        @Override
        public void close() {
        }

        @Override
        public void abort() {
        }
    }
}
