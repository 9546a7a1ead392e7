package io.ricochet.loadgen.distributed;

/** Where a worker is in a distributed run. */
public enum WorkerState {
    /** Launched; not connected yet. */
    PENDING,
    /** Said hello and got its shard. */
    CONNECTED,
    /** Waiting at the start barrier. */
    READY,
    RUNNING,
    /** Reported its summary. */
    DONE,
    /** Never started, died, or stopped reporting; the reason says which. */
    FAILED;

    public boolean terminal() {
        return this == DONE || this == FAILED;
    }
}
