package io.ricochet.examples.kv;

import io.ricochet.loadgen.workload.Context;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The engine's side of a conversation, as small as a test needs: one connection index, a seeded random source, and a
 * sequence number the test moves on itself (the engine reuses one context per connection too).
 */
final class FakeContext implements Context {
    private final long connection;
    private final RandomGenerator random;
    private long sequence = -1;

    FakeContext(long connection, long seed) {
        this.connection = connection;
        this.random = new SplittableRandom(seed);
    }

    /** This context at request {@code sequence}: for {@code request}, and again for the check of its reply. */
    FakeContext at(long sequence) {
        this.sequence = sequence;
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
        return 0;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public long sendTimeMicros() {
        return 0;
    }
}
