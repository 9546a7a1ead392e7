package io.ricochet.config;

import java.time.Duration;

/**
 * Argument checks whose messages name the field, the value and the expectation, like {@code maxFrame: 0 (expected:
 * 1..4094)}; durations read as they are written on a command line ({@code 0s}, not {@code PT0S}). Each returns its
 * value, or throws {@link InvalidValueException}, so a record's compact constructor or a builder checks in one line:
 *
 * <pre>{@code
 * record PoolConfig(int size, Duration timeout) {
 *     PoolConfig {
 *         Checks.inRange("size", size, 1, 1024);
 *         Checks.positive("timeout", timeout);
 *     }
 * }
 * }</pre>
 *
 * <p>The framework's configuration records use these, and so can an application's, for messages in the same shape.
 */
public final class Checks {
    private Checks() {
    }

    public static int inRange(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidValueException(field, Integer.toString(value), min + ".." + max);
        }
        return value;
    }

    public static long inRange(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidValueException(field, Long.toString(value), min + ".." + max);
        }
        return value;
    }

    /** Rejects NaN too: it is in no range. */
    public static double inRange(String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new InvalidValueException(field, Double.toString(value), min + ".." + max);
        }
        return value;
    }

    public static int positive(String field, int value) {
        if (value <= 0) {
            throw new InvalidValueException(field, Integer.toString(value), "> 0");
        }
        return value;
    }

    public static long positive(String field, long value) {
        if (value <= 0) {
            throw new InvalidValueException(field, Long.toString(value), "> 0");
        }
        return value;
    }

    public static long notNegative(String field, long value) {
        if (value < 0) {
            throw new InvalidValueException(field, Long.toString(value), ">= 0");
        }
        return value;
    }

    public static double notNegative(String field, double value) {
        if (!(value >= 0)) {
            throw new InvalidValueException(field, Double.toString(value), ">= 0");
        }
        return value;
    }

    public static Duration positive(String field, Duration value) {
        notNull(field, value);
        if (value.isZero() || value.isNegative()) {
            throw new InvalidValueException(field, Durations.format(value), "> 0");
        }
        return value;
    }

    public static <T> T notNull(String field, T value) {
        if (value == null) {
            throw new InvalidValueException(field, "null", "a value");
        }
        return value;
    }
}
