package io.ricochet.transport;

import io.netty.channel.Channel;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.session.InPlaceFrameHandler;

/**
 * Adds handlers to each connection's pipeline after Ricochet's own, which are named by the constants
 * here. A server's are, in order: TLS and its guard (with {@code tls(...)}) or Noise (with {@code noise(...)}),
 * decoder, encoder, idle timeout, backpressure, session. A {@link FrameClient}'s have no idle timeout or
 * backpressure, and its raw connections only a decoder and the caller's handler as session: place handlers
 * relative to {@link #DECODER}, {@link #ENCODER} or {@link #SESSION}.
 * For TLS use the builders' {@code tls(...)}, which also bounds handshakes in time and counts those that
 * fail. Runs on the connection's event loop when it is accepted (server) or connected (client); on a server's TLS
 * listener, whose handshakes run on threads of their own, when the handshake has succeeded, on the event loop the
 * connection is then moved to (so a handler added before {@link #TLS} sees neither the handshake nor
 * {@code channelActive}).
 *
 * <p>A server runs its idle timeout and backpressure inside its session handler (one pipeline hop for the three, and
 * two handler contexts less a connection), with no handlers named {@link #IDLE_TIMEOUT} or {@link #BACKPRESSURE}, when
 * its customizer {@linkplain #addsNothingBetweenStages declares} that it adds nothing between them; otherwise they are
 * handlers of their own, as named here. Which a listener runs is logged once.
 *
 * <p>A server whose handler is an {@link InPlaceFrameHandler} answers a whole read in place, handing it to the
 * session as one {@link io.ricochet.codec.FrameRun}, only when its customizer {@linkplain #keepsFrameRuns declares}
 * that the handlers it adds pass such messages on untouched; otherwise it frames one body at a time, and says so in
 * one log line per listener.
 *
 * <pre>{@code
 * PipelineCustomizer counting = PipelineCustomizer.outsideTheStages(ch ->
 *         ch.pipeline().addBefore(PipelineCustomizer.DECODER, "bytes", new ByteCounter()));
 * }</pre>
 */
@FunctionalInterface
public interface PipelineCustomizer {
    /** Adds nothing: it keeps frame runs and adds nothing between the stages. */
    PipelineCustomizer NONE = outsideTheStages(channel -> { });

    /** The {@code SslHandler}, first, when the server or client was given {@code tls(...)}. */
    String TLS = "ricochet.tls";
    /** Right after {@link #TLS}: counts and closes on a TLS failure. */
    String TLS_GUARD = "ricochet.tls.guard";
    /** The Noise channel's handler, first, when the server or client was given {@code noise(...)}. */
    String NOISE = "ricochet.noise";
    String DECODER = "ricochet.decoder";
    String ENCODER = "ricochet.encoder";
    /** Servers only. */
    String IDLE_TIMEOUT = "ricochet.idle";
    /** Servers only. */
    String BACKPRESSURE = "ricochet.backpressure";
    String SESSION = "ricochet.session";

    void customize(Channel channel);

    /**
     * Whether every handler this adds between {@link #DECODER} and {@link #SESSION} passes each message on untouched
     * (or it adds none there), so that the session may still be handed a read's frames as one
     * {@link io.ricochet.codec.FrameRun}. False unless declared: a handler there may expect one body per frame.
     */
    default boolean keepsFrameRuns() {
        return false;
    }

    /**
     * Whether this adds no handler between {@link #DECODER} and {@link #SESSION} and names neither
     * {@link #IDLE_TIMEOUT} nor {@link #BACKPRESSURE}, so that a server may run those two stages inside its session
     * handler. False unless declared: a customizer written for separate stages may place handlers relative to them.
     */
    default boolean addsNothingBetweenStages() {
        return false;
    }

    /**
     * {@code customizer}, declaring that it adds handlers only before {@link #DECODER} (or the TLS or Noise handler) or
     * after {@link #SESSION}: it {@linkplain #keepsFrameRuns keeps frame runs} and
     * {@linkplain #addsNothingBetweenStages adds nothing between the stages}.
     */
    static PipelineCustomizer outsideTheStages(PipelineCustomizer customizer) {
        return new DeclaredCustomizer(customizer, true, true);
    }

    /** {@code customizer}, declaring that it {@linkplain #keepsFrameRuns keeps frame runs}. */
    static PipelineCustomizer keepingFrameRuns(PipelineCustomizer customizer) {
        return new DeclaredCustomizer(customizer, true, false);
    }
}
