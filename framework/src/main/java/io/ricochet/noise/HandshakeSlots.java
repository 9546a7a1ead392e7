package io.ricochet.noise;

import io.ricochet.handler.SourceAddress;
import io.ricochet.metrics.HandshakeShedReason;
import java.util.HashMap;
import java.util.Map;

/**
 * The places for handshakes in progress: at most {@code max} in all and {@code maxPerSource} from one source. A
 * source holds an entry only while it holds a place, so the table is never larger than {@code max}. One lock: it is
 * taken twice a handshake, next to a millisecond of key agreement.
 */
final class HandshakeSlots {
    private final int max;
    private final int maxPerSource;
    private final Map<Object, int[]> perSource = new HashMap<>();
    private int held;

    HandshakeSlots(int max, int maxPerSource) {
        this.max = max;
        this.maxPerSource = maxPerSource;
    }

    /** Takes a place for {@code source} (see {@link SourceAddress#of}); null if it got one, else why not. */
    synchronized HandshakeShedReason acquire(Object source) {
        if (held >= max) {
            return HandshakeShedReason.MAX_HANDSHAKES;
        }
        int[] count = perSource.computeIfAbsent(source, s -> new int[1]);
        if (count[0] >= maxPerSource) {
            return HandshakeShedReason.MAX_HANDSHAKES_PER_ADDRESS;
        }
        count[0]++;
        held++;
        return null;
    }

    /** Gives back a place {@link #acquire} gave {@code source}. */
    synchronized void release(Object source) {
        int[] count = perSource.get(source);
        if (count == null || count[0] == 0) {
            throw new IllegalStateException("handshake slots: a release without an acquire for " + source);
        }
        held--;
        if (--count[0] == 0) {
            perSource.remove(source);
        }
    }

    synchronized int held() {
        return held;
    }

    /** Sources holding places: at most {@code max}. */
    synchronized int sources() {
        return perSource.size();
    }
}
