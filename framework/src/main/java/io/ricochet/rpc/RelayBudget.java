package io.ricochet.rpc;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of forwarded calls an agent has queued and not yet written to their owners' sockets, across
 * all owners, held under a cap: an owner that stops reading must not let callers grow the agent's
 * memory. Thread-safe: callers reserve on their own event loops, writes release on the owners'.
 */
final class RelayBudget {
    private final long max;
    private final AtomicLong queued = new AtomicLong();

    RelayBudget(long max) {
        this.max = max;
    }

    boolean tryReserve(long bytes) {
        if (queued.addAndGet(bytes) > max) {
            queued.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    void release(long bytes) {
        queued.addAndGet(-bytes);
    }

    long queued() {
        return queued.get();
    }

    long max() {
        return max;
    }
}
