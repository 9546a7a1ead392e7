package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.workload.Context;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The {@link Context} of one connection's requests: one instance per connection, pointed at each request in turn.
 * Its random source is seeded from the run's seed and the connection's index, so a run repeats.
 */
final class ConnectionContext implements Context {
    private final long connection;
    private final int worker;
    private final long seed;
    /** Wall-clock micros minus monotonic micros, taken once per load: a send time without a second clock read. */
    private final long wallOffsetMicros;
    private SplittableRandom random;
    private long sequence = -1;
    private long sentNanos;

    ConnectionContext(long connection, int worker, long seed, long wallOffsetMicros) {
        this.connection = connection;
        this.worker = worker;
        this.seed = seed;
        this.wallOffsetMicros = wallOffsetMicros;
    }

    /**
     * Points this context at request {@code sequence}, made at {@code sentNanos} ({@link System#nanoTime}); returns it.
     * The wall-clock send time is worked out only if asked: most workloads never ask.
     */
    ConnectionContext at(long sequence, long sentNanos) {
        this.sequence = sequence;
        this.sentNanos = sentNanos;
        return this;
    }

    @Override
    public long connection() {
        return connection;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public int worker() {
        return worker;
    }

    @Override
    public RandomGenerator random() {
        if (random == null) {
            // Made on first use: most workloads never draw, and a held connection's bytes count.
            random = new SplittableRandom(Mixing.mix(seed ^ Mixing.mix(connection * 0x9E3779B97F4A7C15L + 1)));
        }
        return random;
    }

    @Override
    public long sendTimeMicros() {
        return wallOffsetMicros + sentNanos / 1000;
    }

    @Override
    public String toString() {
        return "connection " + connection + " request " + sequence;
    }
}
