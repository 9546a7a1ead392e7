package io.ricochet.transport.server;

import io.netty.channel.Channel;
import io.ricochet.config.ServerConfig;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.Protocol;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A QUIC listener: its sessions are its streams, which share its socket. */
final class QuicBinding extends ListenerBinding {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);
    private volatile QuicListener quic;

    QuicBinding(Listener listener, ServerConfig config, ListenerContext context) {
        super(listener, config, context);
    }

    @Override
    CompletableFuture<Void> bind() {
        QuicListener made = new QuicListener(config, listener.quicTls(), handlers, counters, customizer());
        quic = made;
        EventLoops loops = context.loops();
        return bound(made.bind(loops.group().next(), loops.transport()), config.quicPort())
                .thenAccept(ch -> log.info("{} bound to {} ({}, TLS 1.3, ALPN {})", listener.protocol(),
                        hostPort(address()), loops.kind().label(), Protocol.QUIC_ALPN));
    }

    @Override
    InetSocketAddress address() {
        QuicListener listening = quic;
        return listening == null ? null : listening.address();
    }

    @Override
    int active() {
        QuicListener listening = quic;
        return listening == null ? 0 : listening.activeStreams();
    }

    int activeConnections() {
        QuicListener listening = quic;
        return listening == null ? 0 : listening.activeConnections();
    }

    /** The streams drain as TCP connections do; the socket closes once they have. */
    @Override
    CompletableFuture<Void> drain() {
        QuicListener listening = quic;
        if (listening == null) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Void>> streams = new ArrayList<>();
        for (Channel stream : listening.closeStreams()) {
            streams.add(drain(stream));
        }
        return CompletableFuture.allOf(streams.toArray(CompletableFuture[]::new)).thenCompose(v -> listening.close());
    }

    @Override
    Collection<Channel> openSessions() {
        QuicListener listening = quic;
        return listening == null ? List.of() : listening.openStreams();
    }

    @Override
    CompletableFuture<Void> close() {
        QuicListener listening = quic;
        return listening == null ? CompletableFuture.completedFuture(null) : listening.close();
    }
}
