package io.ricochet.transport.session;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.tls.Tls;
import io.ricochet.transport.PipelineCustomizer;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What the server and the client packages need of a session: the handlers that run one, and its graceful ends. The
 * session's own classes stay package-private: this is the one door in.
 */
public final class Sessions {
    private Sessions() {
    }

    /**
     * The handler that runs one TCP connection's (or QUIC stream's) {@link FrameSession} for {@code handler}, after
     * {@code decoder}; a close is timed by {@code lingerTimeouts}, one value for all of a listener's connections.
     */
    public static ChannelHandler tcpSession(FrameHandler handler, ConnectionStats stats, int width,
            FrameDecoder decoder, LingerTimeouts lingerTimeouts) {
        return new TcpSessionHandler(handler, stats, width, decoder, lingerTimeouts, null);
    }

    /** The handler of a UDP socket: a session per peer, up to {@code sessions}, each with a handler of its own. */
    public static ChannelHandler udpSessions(Supplier<FrameHandler> handlers, ConnectionStats stats, int width,
            int maxBody, Duration idleTimeout, ConnectionBudget sessions) {
        return new UdpSessionHandler(handlers, stats, width, maxBody, idleTimeout, sessions);
    }

    /**
     * Lets {@code ch}'s session finish the replies it owes, serving nothing new, then close lingering; a channel with
     * no session closes at once. Any thread.
     */
    public static void drain(Channel ch) {
        ch.eventLoop().execute(() -> {
            if (!ch.eventLoop().inEventLoop()) {
                // Moved to another loop meanwhile (a TLS connection handed off after its handshake): drained there.
                drain(ch);
                return;
            }
            TcpSessionHandler session = ch.pipeline().get(TcpSessionHandler.class);
            if (session != null) {
                session.drain();
            } else {
                ch.close();
            }
        });
    }

    /** Closes {@code ch}'s session gracefully (replies owed flushed first, then lingering), or the channel itself. */
    public static void close(Channel ch) {
        TcpSessionHandler session = ch.pipeline().get(TcpSessionHandler.class);
        if (session != null) {
            session.session().close();
        } else {
            ch.close();
        }
    }

    /** TLS and its guard, first in the pipeline: the handshake bounded in time, a failure counted and closed. */
    public static void addTls(ChannelPipeline p, Tls tls, ConnectionStats stats, SslHandler ssl) {
        ssl.setHandshakeTimeoutMillis(tls.handshakeTimeout().toMillis());
        p.addFirst(PipelineCustomizer.TLS, ssl);
        p.addAfter(PipelineCustomizer.TLS, PipelineCustomizer.TLS_GUARD, new TlsGuardHandler(stats));
    }
}
