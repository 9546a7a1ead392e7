package io.ricochet.loadgen.workload;

import java.util.random.RandomGenerator;

/**
 * What a conversation knows of the request at hand. The engine reuses one instance per connection, so read it during
 * the call and do not keep it.
 *
 * <pre>{@code
 * public void request(Context request, ByteBuf body) {
 *     long key = request.random().nextLong(keys);   // seeded by the run and the connection: a run repeats
 *     body.writeCharSequence("get " + request.connection() + "-" + key + "\n", StandardCharsets.US_ASCII);
 * }
 * }</pre>
 */
public interface Context {

    /**
     * The connection's index, run-wide: a controller's workers number theirs on from one another's, so no two
     * connections of a run share one.
     */
    long connection();

    /**
     * The request's number on its connection, from 0; -1 in {@code open}. A connection the server dropped is opened
     * again under the same index with a new conversation, numbered from 0 again.
     */
    long sequence();

    /** This worker's index under a controller; 0 when the generator runs alone or from code. */
    int worker();

    /**
     * The connection's random source, seeded from the run's {@code --seed} and the connection's index, so a run with
     * the same seed makes the same requests (a reopened connection draws the same again). A check that needs what a
     * request drew keeps it: the draws do not repeat, so a check cannot draw them again.
     */
    RandomGenerator random();

    /**
     * When the request was made, in microseconds since the epoch; the same value in {@code request} and in the check of
     * its reply, so a check can expect it echoed back.
     */
    long sendTimeMicros();
}
