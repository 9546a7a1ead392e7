package io.ricochet.transport.session;

import io.netty.channel.EventLoopGroup;
import io.ricochet.config.Checks;

/**
 * How a TLS listener keeps handshakes off the loops that serve sessions: its connections are accepted onto handshake
 * loops of their own, where at most {@code handshakesPerAddress} of one source address handshake at once (the rest
 * wait, no read asked of them), and each is moved to one of {@code ioLoops} when its handshake succeeds, where its session
 * starts. Give one to {@link TcpChannelInitializer} and register its connections on the handshake loops.
 *
 * <pre>{@code
 * TlsHandoff handoff = TlsHandoff.to(ioLoops.group(), 64);
 * bootstrap.group(handshakeLoops, handshakeLoops).childHandler(new TcpChannelInitializer(..., tls, handoff));
 * }</pre>
 */
public final class TlsHandoff {
    private final EventLoopGroup ioLoops;
    private final HandshakeTurns turns;

    private TlsHandoff(EventLoopGroup ioLoops, HandshakeTurns turns) {
        this.ioLoops = ioLoops;
        this.turns = turns;
    }

    /** Sessions on {@code ioLoops}, and at most {@code handshakesPerAddress} handshakes at once from one source. */
    public static TlsHandoff to(EventLoopGroup ioLoops, int handshakesPerAddress) {
        Checks.notNull("ioLoops", ioLoops);
        Checks.positive("handshakesPerAddress", handshakesPerAddress);
        return new TlsHandoff(ioLoops, new HandshakeTurns(handshakesPerAddress));
    }

    /**
     * The turns alone, each connection's handshake and session on the loop that accepted it: for io_uring, which
     * keeps a connection's submitted reads across a move between loops.
     */
    public static TlsHandoff inPlace(int handshakesPerAddress) {
        Checks.positive("handshakesPerAddress", handshakesPerAddress);
        return new TlsHandoff(null, new HandshakeTurns(handshakesPerAddress));
    }

    /** Where sessions go after their handshake; null: they stay where they were accepted. */
    EventLoopGroup ioLoops() {
        return ioLoops;
    }

    HandshakeTurns turns() {
        return turns;
    }

    /** Connections handshaking now: reading their handshake, or waiting for the peer's next flight. */
    public int handshaking() {
        return turns.holding();
    }

    /** Connections waiting for their source's turn, no read asked of them yet. */
    public int waiting() {
        return turns.waiting();
    }
}
