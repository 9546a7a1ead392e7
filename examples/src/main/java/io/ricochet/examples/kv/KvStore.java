package io.ricochet.examples.kv;

import com.google.protobuf.ByteString;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store both front ends of {@link KvServer} share: at most {@code maxKeys} keys, each
 * {@value #MAX_KEY_BYTES} bytes at most of {@code [A-Za-z0-9._:-]}, each value {@value #MAX_VALUE_BYTES} bytes at
 * most. Thread-safe, and nothing in it blocks, so the front ends call it on their event loops.
 *
 * <pre>{@code
 * KvStore store = new KvStore(1_000);
 * store.put("user:42", ByteString.copyFromUtf8("ada"));   // true: stored
 * store.get("user:42").toStringUtf8();                    // "ada"
 * store.get("user:43");                                   // null: never put
 * }</pre>
 *
 * <p>Its keys come from the network, so the count is bounded: a put of a new key when {@code maxKeys} are stored is
 * refused, while a put that replaces a stored key always succeeds.
 */
public final class KvStore {
    public static final int MAX_KEY_BYTES = 64;
    public static final int MAX_VALUE_BYTES = 1024;
    public static final int DEFAULT_MAX_KEYS = 100_000;
    /** The key rule as validation messages state it. */
    public static final String KEY_RULE = "1.." + MAX_KEY_BYTES + " bytes of [A-Za-z0-9._:-]";

    private final int maxKeys;
    private final ConcurrentHashMap<String, ByteString> values = new ConcurrentHashMap<>();
    /** Places taken, each reserved before its key goes in, so concurrent puts of new keys cannot pass the bound. */
    private final AtomicInteger taken = new AtomicInteger();

    /** A store of at most {@value #DEFAULT_MAX_KEYS} keys. */
    public KvStore() {
        this(DEFAULT_MAX_KEYS);
    }

    public KvStore(int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys: " + maxKeys + " (expected: > 0)");
        }
        this.maxKeys = maxKeys;
    }

    /**
     * Stores {@code value} under {@code key}, replacing what was there; false, storing nothing, if the key is new and
     * the store holds {@link #maxKeys()} keys already. Throws {@link IllegalArgumentException} for a key or value out
     * of bounds: front ends check those first, and answer the peer themselves.
     */
    public boolean put(String key, ByteString value) {
        checkKey(key);
        Objects.requireNonNull(value, "value");
        if (value.size() > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("value: " + value.size() + " bytes (expected: 0.." + MAX_VALUE_BYTES
                    + ")");
        }
        if (values.replace(key, value) != null) {
            return true;
        }
        if (!reservePlace()) {
            // Full, unless a concurrent put has just added this very key: replacing it needs no place.
            return values.replace(key, value) != null;
        }
        if (values.putIfAbsent(key, value) != null) {
            // Added meanwhile by a concurrent put, which took its own place. Keys are never removed, so it stays.
            taken.decrementAndGet();
            values.put(key, value);
        }
        return true;
    }

    /** The value under {@code key}, or null if it was never put. */
    public ByteString get(String key) {
        checkKey(key);
        return values.get(key);
    }

    /** Keys stored now. */
    public int size() {
        return values.size();
    }

    public int maxKeys() {
        return maxKeys;
    }

    /** Whether {@code key} is a valid key: {@value #KEY_RULE}. */
    public static boolean isValidKey(CharSequence key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_BYTES) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            if (!isKeyByte(key.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code b} may be in a key: {@code [A-Za-z0-9._:-]}, all ASCII, so a key's bytes are its characters. */
    public static boolean isKeyByte(int b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
                || b == '.' || b == '_' || b == ':' || b == '-';
    }

    /**
     * Why {@code key} is not a valid key, as a validation message ({@code key: "a b" (expected: 1..64 bytes of
     * [A-Za-z0-9._:-])}), or null if it is one. A long key is described by its length, not quoted.
     */
    public static String keyProblem(String key) {
        if (isValidKey(key)) {
            return null;
        }
        if (key == null) {
            return "key: null (expected: " + KEY_RULE + ")";
        }
        String shown = key.length() > MAX_KEY_BYTES ? key.length() + " characters" : Quoted.of(key);
        return "key: " + shown + " (expected: " + KEY_RULE + ")";
    }

    private static void checkKey(String key) {
        String problem = keyProblem(key);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    private boolean reservePlace() {
        int now;
        do {
            now = taken.get();
            if (now >= maxKeys) {
                return false;
            }
        } while (!taken.compareAndSet(now, now + 1));
        return true;
    }
}
