package io.ricochet.internal;

import java.time.Duration;

/** Argument checks whose messages name the field, the value and the expectation, like {@code maxFrame: 0 (expected: 1..4094)}. */
public final class Checks {
    private Checks() {
    }

    public static int inRange(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    public static long inRange(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    public static int positive(String field, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: > 0)");
        }
        return value;
    }

    public static Duration positive(String field, Duration value) {
        notNull(field, value);
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: > 0)");
        }
        return value;
    }

    public static <T> T notNull(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + ": null (expected: a value)");
        }
        return value;
    }
}
