package io.ricochet.metrics;

/**
 * Traffic counted by one channel's handlers on its event loop and published to the listener's
 * {@link TransportCounters} in batches (per read batch and per flush), so the hot path never touches a
 * contended counter. Also remembers why the channel is closing. Not thread-safe: event-loop confined.
 */
public final class ConnectionStats {
    private final TransportCounters counters;
    private long framesIn;
    private long bytesIn;
    private long framesOut;
    private long bytesOut;
    private CloseReason closeReason;

    public ConnectionStats(TransportCounters counters) {
        this.counters = counters;
    }

    /** Stats that count nothing beyond the channel: for a codec used without a registry. */
    public static ConnectionStats detached() {
        return new ConnectionStats(TransportCounters.NONE);
    }

    public void bytesRead(int bytes) {
        bytesIn += bytes;
    }

    public void frameRead() {
        framesIn++;
    }

    public void framesRead(int frames) {
        framesIn += frames;
    }

    /** Takes back frames counted as read that nothing took: they came after the close began. */
    public void framesUnread(int frames) {
        framesIn -= frames;
    }

    public void framesWritten(int frames, int bytes) {
        framesOut += frames;
        bytesOut += bytes;
    }

    public void frameWritten(int bytes) {
        framesOut++;
        bytesOut += bytes;
    }

    public void protocolError(ProtocolErrorKind kind) {
        counters.protocolErrors(kind, 1);
    }

    /** Adds the counts gathered since the last call to the shared meters. */
    public void publish() {
        if ((framesIn | bytesIn | framesOut | bytesOut) != 0) {
            counters.traffic(framesIn, bytesIn, framesOut, bytesOut);
            framesIn = 0;
            bytesIn = 0;
            framesOut = 0;
            bytesOut = 0;
        }
    }

    /** Records why the channel closes; the first reason given wins. */
    public void closing(CloseReason reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
    }

    /** The reason given, or {@link CloseReason#PEER} if the channel closed without one. */
    public CloseReason closeReason() {
        return closeReason == null ? CloseReason.PEER : closeReason;
    }

    public TransportCounters counters() {
        return counters;
    }
}
