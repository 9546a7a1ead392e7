package io.ricochet.examples.kv;

import io.ricochet.loadgen.workload.Context;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * One connection's side of a kv workload, whichever front end it talks to: its own key space, what it last put in
 * each key, and what each of its requests must get back. Confined to the connection's event loop.
 *
 * <p>The keys are {@code c<connection>-<tag>-k<n>}: the connection's run-wide index keeps connections apart, so each
 * one's checks hold whatever the others do, and a tag drawn when the conversation opens keeps it apart from earlier
 * conversations under the same index (a connection reopened after the server dropped it, an earlier run against the
 * same server), whose values may still be in the store.
 *
 * <p>A request's expectation is fixed when it is made: a get expects the value of the last put made before it on this
 * connection, or {@code missing}. The server serves one connection's requests in the order they were sent, so that
 * holds however many are in flight, even when a later put changes the key before the get's reply arrives.
 */
final class KvModel {
    static final int MAX_KEYS = 100_000;
    /** Base-36 letters of the tag: 2 billion tags, so a conversation meets an earlier one's keys by no real chance. */
    private static final int TAG_LENGTH = 6;

    private final String keyPrefix;
    private final double getShare;
    /** The last value put in each key by this conversation; null for a key it has not put. */
    private final String[] lastPut;
    private final RequestLog log = new RequestLog();

    KvModel(long connection, int keys, double getShare) {
        checkParameters(keys, getShare);
        this.keyPrefix = "c" + connection + "-" + tag() + "-k";
        this.getShare = getShare;
        this.lastPut = new String[keys];
    }

    /** {@code keys} in 1..{@value #MAX_KEYS} and {@code getShare} in 0..1, named as the workload parameters are. */
    static void checkParameters(int keys, double getShare) {
        if (keys < 1 || keys > MAX_KEYS) {
            throw new IllegalArgumentException("keys: " + keys + " (expected: 1.." + MAX_KEYS + ")");
        }
        if (!(getShare >= 0 && getShare <= 1)) {
            throw new IllegalArgumentException("get-share: " + getShare + " (expected: 0..1)");
        }
    }

    /**
     * Draws request {@code request.sequence()} from the connection's random source: a get with probability {@code
     * getShare}, else a put of a new value, of a key drawn uniformly; and remembers what its reply must be.
     */
    KvRequest next(Context request) {
        RandomGenerator random = request.random();
        int key = random.nextInt(lastPut.length);
        KvRequest made;
        if (random.nextDouble() < getShare) {
            made = new KvRequest(request.sequence(), true, key, lastPut[key]);
        } else {
            // Named after its request, so a reason that shows a wrong value also shows which put it came from.
            String value = "v" + request.sequence() + "-" + Long.toString(random.nextLong() >>> 1, 36);
            lastPut[key] = value;
            made = new KvRequest(request.sequence(), false, key, value);
        }
        log.add(made);
        return made;
    }

    /** The request numbered {@code sequence}, for its check; null if it is no longer remembered. */
    KvRequest requestAt(long sequence) {
        return log.check(sequence);
    }

    String key(int index) {
        return keyPrefix + index;
    }

    /** What a check says of a reply to a request it no longer remembers. */
    static String forgotten(long sequence) {
        return "request " + sequence + ": not remembered (expected: one of the last " + RequestLog.MAX
                + " requests of its connection; is more than that in flight?)";
    }

    /** {@code get c3-x7k2qp-k17}: what a reason says a request was. */
    String describe(KvRequest request) {
        return (request.get() ? "get " : "put ") + key(request.key());
    }

    /** Resident bytes of one conversation's own state, which the plan adds to the engine's: keys and request log. */
    static long bytesPerConnection(int keys) {
        // A remembered value is a short string (about 64 bytes) and its slot; a logged request, about 40 bytes and the
        // value it may keep alive after the key moved on.
        return keys * 72L + RequestLog.INITIAL * 110L;
    }

    private static String tag() {
        StringBuilder tag = new StringBuilder(TAG_LENGTH);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < TAG_LENGTH; i++) {
            tag.append(Character.forDigit(random.nextInt(36), 36));
        }
        return tag.toString();
    }
}
