package io.ricochet.handler;

import io.ricochet.config.Checks;
import java.util.HashMap;
import java.util.Map;

/**
 * A cap on places held at once by the peers of one source ({@link SourceAddress}): connections from one address, so
 * that no one peer takes a listener's whole cap. A source holds an entry only while it holds a place, so the table is
 * never larger than the places held. One lock, taken twice a connection, at accept and at close.
 *
 * <pre>{@code
 * SourceBudget perAddress = new SourceBudget(64);
 * Object source = SourceAddress.of(channel.remoteAddress());
 * if (!perAddress.tryAcquire(source)) channel.close(); // and perAddress.release(source) when an admitted one closes
 * }</pre>
 */
public final class SourceBudget {
    private final int limitPerSource;
    private final Map<Object, int[]> held = new HashMap<>();

    public SourceBudget(int limitPerSource) {
        this.limitPerSource = Checks.positive("limitPerSource", limitPerSource);
    }

    /** Takes a place for {@code source}, or returns false when it holds every place it may. */
    public synchronized boolean tryAcquire(Object source) {
        int[] count = held.computeIfAbsent(source, s -> new int[1]);
        if (count[0] >= limitPerSource) {
            return false;
        }
        count[0]++;
        return true;
    }

    /** Gives back a place {@link #tryAcquire} gave {@code source}. */
    public synchronized void release(Object source) {
        int[] count = held.get(source);
        if (count == null || count[0] == 0) {
            throw new IllegalStateException("source budget: a release without an acquire for " + source);
        }
        if (--count[0] == 0) {
            held.remove(source);
        }
    }

    public int limitPerSource() {
        return limitPerSource;
    }

    /** Sources holding places now. */
    public synchronized int sources() {
        return held.size();
    }
}
