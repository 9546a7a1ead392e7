package io.ricochet.handler;

import io.ricochet.config.Checks;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cap on places held at once by several holders: connections of several listeners of one process, so that
 * together they stay below its open-file limit (see {@link io.ricochet.config.OpenFileLimit}), each listener keeping
 * its own cap as well, so that a connection needs room in both; or the UDP sessions of several channels on one port.
 * Thread-safe.
 */
public final class ConnectionBudget {
    private final int limit;
    private final AtomicInteger held = new AtomicInteger();

    public ConnectionBudget(int limit) {
        this.limit = Checks.positive("limit", limit);
    }

    /** Takes one connection's place, or returns false when every place is taken. */
    public boolean tryAcquire() {
        if (held.incrementAndGet() > limit) {
            held.decrementAndGet();
            return false;
        }
        return true;
    }

    public void release() {
        held.decrementAndGet();
    }

    public int limit() {
        return limit;
    }

    /** Connections holding a place now. */
    public int held() {
        return held.get();
    }
}
