package io.ricochet.transport.session;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameEncoder;
import io.ricochet.codec.ReplyFraming;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.BackpressureHandler;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.handler.IdleFrameTimeoutHandler;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.noise.NoiseHandler;
import io.ricochet.noise.NoiseHandshakes;
import io.ricochet.tls.Tls;
import io.ricochet.transport.PipelineCustomizer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds each accepted connection's pipeline, or closes it at once when over the connection cap:
 * [TLS → TLS guard, or Noise →] decoder → encoder → idle timeout → backpressure → session, named as {@link PipelineCustomizer} says,
 * then whatever the customizer adds. When the customizer {@linkplain PipelineCustomizer#addsNothingBetweenStages adds
 * nothing between the stages}, the session handler runs the idle timeout and backpressure itself (the fused stages:
 * decoder → encoder → session); which, is said once per listener. Decoder and encoder share the connection's {@link ReplyFraming}, chosen here
 * once for the listener: for an {@link InPlaceFrameHandler} whose customizer {@linkplain PipelineCustomizer#keepsFrameRuns
 * keeps frame runs}, a read's frames as one {@link io.ricochet.codec.FrameRun}; else one body per frame, with one log
 * line saying why when the handler could have answered in place. Public so benchmarks and tests can build the exact
 * server pipeline on an {@code EmbeddedChannel}.
 */
public final class TcpChannelInitializer extends ChannelInitializer<Channel> {
    private static final Logger log = LoggerFactory.getLogger(TcpChannelInitializer.class);
    /** Before the TLS handler while a connection waits for, then holds, its source's turn at handshaking. */
    static final String HANDSHAKE_TURN = "ricochet.tls.turn";
    /** Last while a connection handshakes: moves it to an I/O loop, and adds its stages there. */
    static final String TLS_HANDOFF = "ricochet.tls.handoff";
    private final ServerConfig config;
    private final Supplier<FrameHandler> handlers;
    private final TransportCounters counters;
    private final ConnectionRegistry connections;
    private final PipelineCustomizer customizer;
    private final Tls tls;
    private final NoiseHandshakes noise;
    /** The framing of every connection that answers whole reads in place: it holds nothing, so one serves all. */
    private final ReplyFraming runs;
    private final LingerTimeouts lingerTimeouts;
    /** That a handler which could answer in place does not, for its customizer: said once per listener. */
    private final AtomicBoolean runsOffSaid = new AtomicBoolean();
    /** Which stages the listener's connections run, fused or separate: said once per listener. */
    private final AtomicBoolean stagesSaid = new AtomicBoolean();
    private final Consumer<String> notice;
    /** Where a TLS listener's handshakes run and its sessions go after them; null: both on the accepting loop. */
    private final TlsHandoff handoff;

    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer) {
        this(config, handlers, counters, connections, customizer, null);
    }

    /** @param tls TLS in front of the framing, or null for none */
    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls) {
        this(config, handlers, counters, connections, customizer, tls, (NoiseHandshakes) null);
    }

    /**
     * @param tls   TLS in front of the framing, or null for none
     * @param noise the Noise channel in front of the framing, its handshakes run by this, or null for none; not with
     *              {@code tls}
     */
    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls, NoiseHandshakes noise) {
        this(config, handlers, counters, connections, customizer, tls, noise, null, log::info);
    }

    /**
     * As above, a TLS listener's handshakes run where its connections are registered (the handshake loops), and
     * each connection handed off to {@code handoff}'s I/O loops when its handshake succeeds, where its stages are
     * added and the customizer runs.
     */
    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls, TlsHandoff handoff) {
        this(config, handlers, counters, connections, customizer, Checks.notNull("tls", tls), null,
                Checks.notNull("handoff", handoff), log::info);
    }

    /** As above, saying that frame runs are off to {@code notice} instead of the log. */
    TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls, NoiseHandshakes noise,
            TlsHandoff handoff, Consumer<String> notice) {
        if (tls != null && noise != null) {
            throw new IllegalArgumentException("tls and noise on one listener (expected: one or the other)");
        }
        this.handoff = handoff;
        this.noise = noise;
        this.config = config;
        this.handlers = handlers;
        this.counters = counters;
        this.connections = connections;
        this.customizer = customizer;
        this.tls = tls;
        this.notice = notice;
        this.runs = ReplyFraming.runs(config.lengthField(), config.maxFrame());
        // No bound of its own on a close: the idle timeout, which keeps running, bounds it.
        this.lingerTimeouts = new LingerTimeouts(config.lingerTimeout().toNanos(), 0);
    }

    @Override
    protected void initChannel(Channel ch) {
        counters.opened();
        if (!connections.admit(ch)) {
            // Over the cap, or accepted just as a stop began (as connections still in the backlog are reset then).
            counters.closed(connections.isClosed() ? CloseReason.SHUTDOWN : CloseReason.LIMIT);
            ch.close();
            return;
        }
        ConnectionStats stats = new ConnectionStats(counters);
        ChannelPipeline p = ch.pipeline();
        if (tls != null) {
            Sessions.addTls(p, tls, stats, tls.context().newHandler(ch.alloc()));
            if (handoff != null) {
                p.addFirst(HANDSHAKE_TURN, new HandshakeTurnHandler(handoff.turns(), stats));
            }
            if (handoff != null && handoff.ioLoops() != null) {
                // The stages start on the I/O loop the connection is handed to, once its handshake has succeeded.
                p.addLast(TLS_HANDOFF, new TlsHandoffHandler(handoff.ioLoops(), stats, handed -> addStages(handed, stats)));
                return;
            }
        } else if (noise != null) {
            p.addFirst(PipelineCustomizer.NOISE, NoiseHandler.server(noise, config.lengthField().width(), stats));
        }
        addStages(ch, stats);
    }

    /** Decoder, encoder and session (with the idle timeout and backpressure, fused or not), then the customizer's. */
    private void addStages(Channel ch, ConnectionStats stats) {
        ChannelPipeline p = ch.pipeline();
        FrameHandler handler = handlers.get();
        boolean inPlace = handler instanceof InPlaceFrameHandler;
        // One body per frame holds the frame in hand: a framing of the connection's own (runs' holds nothing).
        ReplyFraming framing = inPlace && customizer.keepsFrameRuns() ? runs
                : ReplyFraming.perFrame(config.lengthField(), config.maxFrame());
        FrameDecoder decoder = new FrameDecoder(framing, stats);
        FrameEncoder encoder = new FrameEncoder(framing, stats);
        boolean fused = customizer.addsNothingBetweenStages();
        TcpSessionHandler session = new TcpSessionHandler(handler, stats, config.lengthField().width(), decoder,
                lingerTimeouts, fused ? config.idleTimeout() : null);
        p.addLast(PipelineCustomizer.DECODER, decoder);
        p.addLast(PipelineCustomizer.ENCODER, encoder);
        if (!fused) {
            p.addLast(PipelineCustomizer.IDLE_TIMEOUT, new IdleFrameTimeoutHandler(config.idleTimeout(), stats, session));
            p.addLast(PipelineCustomizer.BACKPRESSURE, BackpressureHandler.INSTANCE);
        }
        p.addLast(PipelineCustomizer.SESSION, session);
        customizer.customize(ch);
        if (stagesSaid.compareAndSet(false, true)) {
            notice.accept(fused ? "connections run the idle timeout and backpressure inside the session handler (fused "
                    + "stages: decoder, encoder, session)" : "connections run the idle timeout and backpressure as "
                    + "handlers of their own (" + PipelineCustomizer.IDLE_TIMEOUT + ", " + PipelineCustomizer.BACKPRESSURE
                    + "): the pipeline customizer does not declare that it adds nothing between the stages "
                    + "(PipelineCustomizer.outsideTheStages)");
        }
        if (inPlace && !framing.emitsRuns() && runsOffSaid.compareAndSet(false, true)) {
            notice.accept(handler.getClass().getSimpleName() + " answers in place, but frame by frame here: the "
                    + "pipeline customizer does not declare that its handlers keep a read's frames whole "
                    + "(PipelineCustomizer.keepingFrameRuns)");
        }
    }
}
