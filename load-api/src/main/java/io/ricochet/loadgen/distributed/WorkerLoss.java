package io.ricochet.loadgen.distributed;

import java.util.Locale;

/**
 * What a distributed run does when a worker is lost after the start: it died, its connection dropped, it stopped
 * reporting or its shard failed ({@code --on-worker-loss}).
 */
public enum WorkerLoss {
    /** Stop every worker at once, name the lost one and why, write what was measured so far, and exit 1. */
    ABORT,
    /**
     * Go on with the others; the summary counts it in {@code workers_lost} and its row says when it was lost, and a
     * threshold on a total (qps, requests, ok, errors...) breaks rather than pass on the smaller load.
     */
    CONTINUE;

    /** {@code abort} or {@code continue}, as the flag and the report write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy {@code text} names; an {@link IllegalArgumentException} naming the choices if none. */
    public static WorkerLoss parse(String text) {
        for (WorkerLoss w : values()) {
            if (w.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return w;
            }
        }
        throw new IllegalArgumentException("--on-worker-loss: " + text + " (expected: abort or continue)");
    }
}
