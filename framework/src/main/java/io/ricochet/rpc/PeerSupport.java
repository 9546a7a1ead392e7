package io.ricochet.rpc;

import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.session.FrameSession;
import java.util.ArrayList;

/**
 * What the peer is known to understand, and the cancels held until it is known. Today that is {@code CANCEL}: an end
 * older than it closes the connection on one. The dialer learns it from the answer to its first ping, the other end
 * from the pings and cancels it hears. Cancels made before the dialer knows are held, bounded like the calls they stand
 * for, and sent once it does. One per connection, shared by both halves; event-loop confined but {@link #closing}.
 */
final class PeerSupport {
    private enum Cancel { UNKNOWN, YES, NO }

    private final Outbound out;
    private final FrameSession session;
    private final int maxHeld;
    private Cancel cancel;
    private ArrayList<Long> held;
    private volatile boolean closed;

    /** @param dialer whether this end pings first, and so learns from the answer whether the peer takes {@code CANCEL} */
    PeerSupport(Outbound out, FrameSession session, int maxHeld, boolean dialer) {
        this.out = out;
        this.session = session;
        this.maxHeld = maxHeld;
        this.cancel = dialer ? Cancel.UNKNOWN : Cancel.NO;
    }

    /** Tells the peer this end no longer waits for call {@code id}, if the peer understands it; now or once known. */
    void cancelled(long id) {
        switch (cancel) {
            case YES -> out.write(EnvelopeCodec.encode(Envelope.newBuilder().setId(id).setKind(Kind.CANCEL).build(),
                    session), null);
            case UNKNOWN -> {
                // Past the bound the callee just runs to its deadline.
                if (held == null) {
                    held = new ArrayList<>();
                }
                if (held.size() < maxHeld) {
                    held.add(id);
                }
            }
            case NO -> {
            }
        }
    }

    /** The peer pinged or cancelled, which only ends that understand {@code CANCEL} do. */
    void understandsCancel() {
        learned(Cancel.YES);
    }

    /** The answer to this end's first ping: an end that does not know the method ({@code NOT_FOUND}) predates CANCEL too. */
    void pingAnswered(boolean ok) {
        if (cancel == Cancel.UNKNOWN) {
            learned(ok ? Cancel.YES : Cancel.NO);
        }
    }

    private void learned(Cancel answer) {
        if (cancel == answer || cancel == Cancel.YES) {
            return;
        }
        cancel = answer;
        ArrayList<Long> ids = held;
        held = null;
        if (answer == Cancel.YES && ids != null && !closed) {
            for (long id : ids) {
                cancelled(id);
            }
        }
    }

    /** This end is closing: held cancels are not sent. Thread-safe. */
    void closing() {
        closed = true;
    }

    /** The connection is gone: held cancels are dropped. */
    void connectionLost() {
        closed = true;
        held = null;
    }
}
