package io.ricochet.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.ricochet.transport.FrameHandler;
import io.ricochet.transport.FrameSession;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Frames to envelopes: gives each session an {@link RpcConnection} and feeds it what arrives. */
final class RpcFrameHandler implements FrameHandler {
    private static final Logger log = LoggerFactory.getLogger(RpcFrameHandler.class);

    private final Function<FrameSession, RpcConnection> factory;
    private final Consumer<RpcConnection> onOpen;
    private final Consumer<RpcConnection> onClose;

    RpcFrameHandler(Function<FrameSession, RpcConnection> factory, Consumer<RpcConnection> onOpen,
            Consumer<RpcConnection> onClose) {
        this.factory = factory;
        this.onOpen = onOpen;
        this.onClose = onClose;
    }

    @Override
    public void sessionOpened(FrameSession session) {
        RpcConnection connection = factory.apply(session);
        session.attach(connection);
        onOpen.accept(connection);
    }

    @Override
    public void onFrame(FrameSession session, ByteBuf body) {
        RpcConnection connection = (RpcConnection) session.attachment();
        try {
            connection.onEnvelope(EnvelopeCodec.decode(body));
        } catch (InvalidProtocolBufferException e) {
            log.debug("closing {}: not an RPC envelope: {}", session.remoteAddress(), e.getMessage());
            session.close();
        }
    }

    @Override
    public void sessionClosed(FrameSession session) {
        RpcConnection connection = (RpcConnection) session.attachment();
        if (connection != null) {
            connection.closed();
            onClose.accept(connection);
        }
    }
}
