package io.ricochet.transport.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.ricochet.transport.session.FrameSession;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * The work of a {@link FrameClient.FrameExchange}: the replies awaited on one connection, in the order their
 * requests were sent, each completed by the next frame received.
 */
final class ReplyQueue {
    private final ArrayDeque<CompletableFuture<ByteBuf>> waiting = new ArrayDeque<>();
    private volatile FrameSession session;
    /** Set on the event loop when the connection closes: later requests fail at once instead of waiting forever. */
    private volatile boolean closed;

    void opened(FrameSession s) {
        this.session = s;
    }

    FrameSession session() {
        return session;
    }

    CompletableFuture<ByteBuf> request(ByteBuf body) {
        CompletableFuture<ByteBuf> reply = new CompletableFuture<>();
        FrameSession s = session;
        EventLoop loop = s.eventLoop();
        if (loop.inEventLoop()) {
            send(s, body, reply);
        } else {
            try {
                loop.execute(() -> send(s, body, reply));
            } catch (RejectedExecutionException e) {
                body.release();
                reply.completeExceptionally(closedException(s));
            }
        }
        return reply;
    }

    private void send(FrameSession s, ByteBuf body, CompletableFuture<ByteBuf> reply) {
        if (closed) {
            body.release();
            reply.completeExceptionally(closedException(s));
            return;
        }
        waiting.add(reply);
        s.send(body, null);
    }

    private static IOException closedException(FrameSession s) {
        return new IOException("connection to " + s.remoteAddress() + " closed");
    }

    void received(ByteBuf body) {
        CompletableFuture<ByteBuf> reply = waiting.poll();
        if (reply == null || !reply.complete(body)) {
            body.release();
        }
    }

    void closed(FrameSession s) {
        closed = true;
        CompletableFuture<ByteBuf> reply;
        while ((reply = waiting.poll()) != null) {
            reply.completeExceptionally(closedException(s));
        }
    }
}
