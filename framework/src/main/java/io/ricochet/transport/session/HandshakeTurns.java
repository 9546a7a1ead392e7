package io.ricochet.transport.session;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * Turns at handshaking, per source: at most {@code perSource} connections of one source handshake at once, and the
 * rest wait, first come first served, for a turn that one of them gives back. Waiting costs nothing but the
 * accepted connection, which the connection caps bound already, so an honest client that opens many connections
 * at once is slowed to its share, never refused, and a flood from one source holds at most {@code perSource}
 * handshakes' work. A source holds an entry only while it holds a turn. One lock, taken a few times a handshake.
 */
final class HandshakeTurns {
    private final int perSource;
    private final Map<Object, Source> sources = new HashMap<>();
    private int held;
    private int queued;

    /** One source's turns held, and the connections waiting for one, in arrival order. */
    private static final class Source {
        int holding;
        final LinkedHashSet<Runnable> waiting = new LinkedHashSet<>();
    }

    HandshakeTurns(int perSource) {
        if (perSource < 1) {
            throw new IllegalArgumentException("perSource: " + perSource + " (expected: at least 1)");
        }
        this.perSource = perSource;
    }

    /**
     * A turn for {@code source}: true if taken now; else {@code waiter} is queued, and run (on the thread that gives a
     * turn back) once the turn is its own.
     */
    synchronized boolean take(Object source, Runnable waiter) {
        Source s = sources.computeIfAbsent(source, k -> new Source());
        if (s.holding < perSource) {
            s.holding++;
            held++;
            return true;
        }
        if (s.waiting.add(waiter)) {
            queued++;
        }
        return false;
    }

    /** Takes {@code waiter} out of the queue: false if it was not there, since it has been given a turn. */
    synchronized boolean withdraw(Object source, Runnable waiter) {
        Source s = sources.get(source);
        if (s == null || !s.waiting.remove(waiter)) {
            return false;
        }
        queued--;
        return true;
    }

    /** Gives back a turn of {@code source}: to the source's longest waiter, if any. */
    void release(Object source) {
        Runnable next = null;
        synchronized (this) {
            Source s = sources.get(source);
            if (s == null || s.holding == 0) {
                throw new IllegalStateException("handshake turns: a release without a turn for " + source);
            }
            Iterator<Runnable> oldest = s.waiting.iterator();
            if (oldest.hasNext()) {
                next = oldest.next();
                oldest.remove();
                queued--;
            } else {
                held--;
                if (--s.holding == 0) {
                    sources.remove(source);
                }
            }
        }
        if (next != null) {
            next.run();
        }
    }

    /** Turns held, over all sources. */
    synchronized int holding() {
        return held;
    }

    /** Connections waiting for a turn, over all sources. */
    synchronized int waiting() {
        return queued;
    }

    /** Sources holding a turn. */
    synchronized int sources() {
        return sources.size();
    }
}
