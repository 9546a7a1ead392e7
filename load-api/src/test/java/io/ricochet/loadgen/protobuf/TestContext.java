package io.ricochet.loadgen.protobuf;

import io.ricochet.loadgen.workload.Context;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/** A request's context with the numbers a test chooses. */
record TestContext(long connection, long sequence, int worker, long sendTimeMicros) implements Context {

    static TestContext of(long connection, long sequence) {
        return new TestContext(connection, sequence, 0, 1_700_000_000_000_000L + sequence);
    }

    @Override
    public RandomGenerator random() {
        return new SplittableRandom(connection);
    }
}
