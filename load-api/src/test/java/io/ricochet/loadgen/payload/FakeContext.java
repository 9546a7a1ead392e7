package io.ricochet.loadgen.payload;

import io.ricochet.loadgen.workload.Context;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/** A request's context with the values a test sets. */
final class FakeContext implements Context {
    long connection;
    long sequence;
    int worker;
    long sendTimeMicros;

    FakeContext(long connection, long sequence) {
        this.connection = connection;
        this.sequence = sequence;
    }

    /** Request {@code sequence} of connection 3, worker 2, sent at 1,700,000,000,000,123 µs. */
    static FakeContext request(long sequence) {
        FakeContext context = new FakeContext(3, sequence);
        context.worker = 2;
        context.sendTimeMicros = 1_700_000_000_000_123L;
        return context;
    }

    /** The same connection's context at its opening. */
    FakeContext opening() {
        FakeContext context = new FakeContext(connection, -1);
        context.worker = worker;
        context.sendTimeMicros = sendTimeMicros;
        return context;
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
        return new SplittableRandom(connection);
    }

    @Override
    public long sendTimeMicros() {
        return sendTimeMicros;
    }
}
