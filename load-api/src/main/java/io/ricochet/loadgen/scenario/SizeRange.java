package io.ricochet.loadgen.scenario;

import io.ricochet.config.ByteSizes;
import io.ricochet.config.Counts;
import java.util.function.ToIntFunction;

/**
 * Body bytes (or a count) from {@code min} to {@code max}, written {@code N} or {@code MIN..MAX} in
 * {@link ByteSizes}' units: {@code 64}, {@code 4k}, {@code 1k..4k}.
 *
 * <pre>{@code
 * SizeRange r = SizeRange.parseBytes("1k..4k");   // 1024..4096
 * r.toString();                                    // "1024..4096"
 * }</pre>
 *
 * @param min the least, 0 or more (a command that sends bodies asks for at least 1)
 * @param max the most, at least {@code min}
 */
public record SizeRange(int min, int max) {
    public SizeRange {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("size: " + min + ".." + max + " (expected: 0 <= MIN <= MAX)");
        }
    }

    /** One size. */
    public static SizeRange of(int bytes) {
        return new SizeRange(bytes, bytes);
    }

    /** Whether it is one size, not a range. */
    public boolean single() {
        return min == max;
    }

    /** Body bytes, {@code N} or {@code MIN..MAX}, 1 or more: {@code 64}, {@code 4k}, {@code 1MB}, {@code 1k..4k}. */
    public static SizeRange parseBytes(String value) {
        return parse(value, ByteSizes::parseInt, "size", "bytes N or MIN..MAX, 1 <= MIN <= MAX, e.g. 64, 4k, 1MB, 1k..4k");
    }

    /** A count, {@code N} or {@code MIN..MAX}, 1 or more, in {@link Counts}' units: {@code 100}, {@code 1k..10k}. */
    public static SizeRange parseCounts(String value) {
        return parse(value, Counts::parseInt, "counts", "N or MIN..MAX, 1 <= MIN <= MAX, e.g. 100, 10k, 1k..10k");
    }

    private static SizeRange parse(String value, ToIntFunction<String> parse, String name, String expected) {
        try {
            int dots = value.indexOf("..");
            int min = parse.applyAsInt(dots < 0 ? value : value.substring(0, dots));
            int max = dots < 0 ? min : parse.applyAsInt(value.substring(dots + 2));
            if (min >= 1 && max >= min) {
                return new SizeRange(min, max);
            }
        } catch (IllegalArgumentException e) {
            // The message below names the whole value and every form.
        }
        throw new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
    }

    /** As written: {@code 64}, or {@code 1024..4096}. */
    @Override
    public String toString() {
        return single() ? Integer.toString(min) : min + ".." + max;
    }
}
