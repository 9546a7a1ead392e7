package io.ricochet.internal;

import org.slf4j.Logger;

/**
 * A warning that may repeat in a tight loop (a failing {@code accept} when descriptors run out, a peer refused
 * on each of many connections) logged at most once per interval; the next line says how many it stood for.
 * Thread-safe, so the connections of one server, on all its event loops, can share one: the lock is taken once per
 * warning asked for, which stands for an accept or a connection, each costing far more, and never per frame.
 */
public final class RateLimitedLog {
    private final Logger log;
    private final long intervalNanos;
    private boolean loggedOnce;
    private long lastNanos;
    private long suppressed;

    public RateLimitedLog(Logger log, long intervalNanos) {
        this.log = log;
        this.intervalNanos = intervalNanos;
    }

    /** Logs {@code message} and {@code cause}'s text at WARN, unless a line went out less than the interval before {@code nowNanos}. */
    public boolean warn(long nowNanos, String message, Throwable cause) {
        return log(nowNanos, message, cause);
    }

    /** Logs {@code message} at WARN, unless a line went out less than the interval before {@code nowNanos}. */
    public boolean warn(long nowNanos, String message) {
        return log(nowNanos, message, null);
    }

    private synchronized boolean log(long nowNanos, String message, Throwable cause) {
        if (loggedOnce && nowNanos - lastNanos < intervalNanos) {
            suppressed++;
            return false;
        }
        String repeats = suppressed == 0 ? "" : " (and " + suppressed + " more times since the last report)";
        log.warn("{}{}{}", message, cause == null ? "" : ": " + cause, repeats);
        loggedOnce = true;
        lastNanos = nowNanos;
        suppressed = 0;
        return true;
    }
}
