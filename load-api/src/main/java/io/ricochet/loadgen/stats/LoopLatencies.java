package io.ricochet.loadgen.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * One event loop's reply latencies, corrected and service, recorded by that loop alone and taken interval by interval
 * by the reporter. It works as HdrHistogram's {@code SingleWriterRecorder} does, on the same {@link WriterReaderPhaser},
 * but the loop records all the replies of a read inside one critical section: entering and leaving one is an atomic
 * increment each, which paid per reply was 3% of the generator's I/O thread at 100 connections x 16 in flight.
 */
final class LoopLatencies {
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    /** Read by the writer inside each critical section; swapped by the reader, which then waits those sections out. */
    private volatile Pair active = new Pair();
    private Pair spare = new Pair();

    /** Opens a critical section for {@link #record}; every call must be matched by {@link #exit}, or a drain waits forever. */
    long enter() {
        return phaser.writerCriticalSectionEnter();
    }

    void exit(long token) {
        phaser.writerCriticalSectionExit(token);
    }

    /** Records one reply; only between {@link #enter} and {@link #exit}, on the loop. */
    void record(boolean openLoop, long correctedMicros, long serviceMicros) {
        Pair into = active;
        if (openLoop) {
            into.corrected.recordValue(correctedMicros);
        }
        into.service.recordValue(serviceMicros);
    }

    /** Adds what was recorded since the last drain to {@code corrected} and {@code service}; any thread. */
    synchronized void drainInto(Histogram corrected, Histogram service) {
        phaser.readerLock();
        try {
            Pair taken = active;
            spare.reset();
            active = spare;
            phaser.flipPhase();
            spare = taken;
            corrected.add(taken.corrected);
            service.add(taken.service);
        } finally {
            phaser.readerUnlock();
        }
    }

    private static final class Pair {
        final Histogram corrected = RunStats.newHistogram();
        final Histogram service = RunStats.newHistogram();

        void reset() {
            corrected.reset();
            service.reset();
        }
    }
}
