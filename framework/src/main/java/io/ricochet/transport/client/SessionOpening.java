package io.ricochet.transport.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The handler of a connection made by {@link FrameClient#connect(java.net.InetSocketAddress, FrameHandler)}: passes
 * everything on to the caller's handler and completes the caller's future with the session once it is open and its
 * TLS or Noise handshake, if any, is done.
 */
final class SessionOpening implements FrameHandler {
    private final FrameHandler handler;
    private final CompletableFuture<FrameSession> session;
    /** The connection's handshake, set as its channel is initialised: null when it has none. */
    private final AtomicReference<Future<Channel>> handshake = new AtomicReference<>();

    SessionOpening(FrameHandler handler, CompletableFuture<FrameSession> session) {
        this.handler = handler;
        this.session = session;
    }

    /** Called from the channel's initializer, before the session opens. */
    void handshake(Future<Channel> handshake) {
        this.handshake.set(handshake);
    }

    @Override
    public void sessionOpened(FrameSession s) {
        try {
            handler.sessionOpened(s);
        } catch (RuntimeException e) {
            // Thrown on, it closes the connection; whoever waits for the session hears why.
            session.completeExceptionally(e);
            throw e;
        }
        Future<Channel> tlsDone = handshake.get();
        if (tlsDone == null) {
            session.complete(s);
        } else {
            tlsDone.addListener(done -> {
                if (done.isSuccess()) {
                    session.complete(s);
                } else {
                    session.completeExceptionally(done.cause());
                }
            });
        }
    }

    @Override
    public void onFrame(FrameSession s, ByteBuf body) {
        handler.onFrame(s, body);
    }

    @Override
    public boolean owesReplies(FrameSession s) {
        return handler.owesReplies(s);
    }

    @Override
    public boolean receivesWhileDraining(FrameSession s) {
        return handler.receivesWhileDraining(s);
    }

    @Override
    public void inputEnded(FrameSession s) {
        handler.inputEnded(s);
    }

    @Override
    public void writabilityChanged(FrameSession s) {
        handler.writabilityChanged(s);
    }

    @Override
    public void sessionClosed(FrameSession s) {
        handler.sessionClosed(s);
    }
}
