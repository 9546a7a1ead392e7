package io.ricochet.rpc;

/**
 * One connection's keepalive clock: when to ping, and when a ping's silence means the peer is gone. A frame each way
 * only sets a flag (no clock read per frame); every {@link #check} (a quarter interval) the flags become times, so a time
 * is at most a quarter interval late. Event-loop confined; the connection writes the pings and acts on the verdicts.
 */
final class Keepalive {
    /** What a check found. */
    enum Verdict {
        /** Nothing to do. */
        QUIET,
        /** Send a ping now. */
        PING,
        /** A ping was followed by a whole interval of silence: the peer is gone. */
        GONE
    }

    private final long intervalNanos;
    private boolean sentSinceCheck;
    private boolean heardSinceCheck;
    private long lastSentNanos;
    private long lastHeardNanos;
    private long pingSentNanos;
    private boolean pingOutstanding;

    /** A clock for pings after {@code intervalNanos} of silence either way, started at {@code now}. */
    Keepalive(long intervalNanos, long now) {
        this.intervalNanos = intervalNanos;
        this.lastSentNanos = now;
        this.lastHeardNanos = now;
    }

    /** A frame went out. */
    void sent() {
        sentSinceCheck = true;
    }

    /** A frame came in. */
    void heard() {
        heardSinceCheck = true;
    }

    /** A ping went out at {@code now}. */
    void pinged(long now) {
        pingSentNanos = now;
        pingOutstanding = true;
    }

    /** How long the outstanding ping has gone unanswered at {@code now}. */
    long silenceNanos(long now) {
        return now - pingSentNanos;
    }

    /**
     * Every quarter interval. A ping goes out once nothing was sent for the interval, since the peer's idle
     * timeout counts the frames it receives, or once nothing was heard for it: between one and one and a quarter
     * intervals after the last frame (a frame's time is that of the first check after it). Any frame heard after a ping
     * shows the peer alive, as in grpc-java: its answer may be queued behind others. Only a ping followed
     * by a whole interval of silence is {@link Verdict#GONE}.
     */
    Verdict check(long now) {
        if (sentSinceCheck) {
            sentSinceCheck = false;
            lastSentNanos = now;
        }
        if (heardSinceCheck) {
            heardSinceCheck = false;
            lastHeardNanos = now;
        }
        if (pingOutstanding) {
            if (lastHeardNanos - pingSentNanos > 0) {
                pingOutstanding = false;
            } else {
                return now - pingSentNanos >= intervalNanos ? Verdict.GONE : Verdict.QUIET;
            }
        }
        return now - lastSentNanos >= intervalNanos || now - lastHeardNanos >= intervalNanos ? Verdict.PING
                : Verdict.QUIET;
    }
}
