package io.ricochet.loadgen.workload;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code --workload-param KEY=VALUE} pairs given to a {@link WorkloadProvider}, read with a default each. A value
 * that does not parse is an {@link IllegalArgumentException} naming the parameter; a parameter that the provider never
 * read is refused after {@code create}, so a misspelt one is not silently ignored.
 *
 * <pre>{@code
 * int keys = parameters.intValue("keys", 1_000);
 * double getShare = parameters.doubleValue("get-share", 0.5);
 * }</pre>
 */
public final class WorkloadParameters {
    private final Map<String, String> values;
    private final Set<String> read = new LinkedHashSet<>();

    private WorkloadParameters(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** The parameters {@code values}, as given. */
    public static WorkloadParameters of(Map<String, String> values) {
        return new WorkloadParameters(new LinkedHashMap<>(values));
    }

    /** No parameters. */
    public static WorkloadParameters none() {
        return new WorkloadParameters(Map.of());
    }

    /** The value of {@code key}, or {@code fallback} if not given. */
    public String stringValue(String key, String fallback) {
        read.add(key);
        return values.getOrDefault(key, fallback);
    }

    public int intValue(String key, int fallback) {
        return parsed(key, fallback, Integer::parseInt, "an integer");
    }

    /** {@link #intValue(String, int)}, which must lie in {@code min..max}: {@code keys: 0 (expected: 1..100000)}. */
    public int intValue(String key, int fallback, int min, int max) {
        int v = intValue(key, fallback);
        if (v < min || v > max) {
            throw invalid(key, Integer.toString(v), min + ".." + max);
        }
        return v;
    }

    /** {@link #doubleValue(String, double)}, which must lie in {@code min..max}: {@code share: 2 (expected: 0..1)}. */
    public double doubleValue(String key, double fallback, double min, double max) {
        double v = doubleValue(key, fallback);
        if (v < min || v > max) {
            throw invalid(key, stringValue(key, Double.toString(v)), format(min) + ".." + format(max));
        }
        return v;
    }

    private static String format(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    public long longValue(String key, long fallback) {
        return parsed(key, fallback, Long::parseLong, "an integer");
    }

    public double doubleValue(String key, double fallback) {
        return parsed(key, fallback, trimmed -> {
            double d = Double.parseDouble(trimmed);
            if (!Double.isFinite(d)) {
                throw invalid(key, values.get(key), "a finite number");
            }
            return d;
        }, "a number");
    }

    /** {@code key}'s value, trimmed, as {@code parse} reads it, or {@code fallback} if not given. */
    private <T> T parsed(String key, T fallback, Function<String, T> parse, String expected) {
        String v = stringValue(key, null);
        if (v == null) {
            return fallback;
        }
        try {
            return parse.apply(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, v, expected);
        }
    }

    public boolean booleanValue(String key, boolean fallback) {
        return parsed(key, fallback, trimmed -> switch (trimmed.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw invalid(key, values.get(key), "true or false");
        }, "true or false");
    }

    /** Every parameter given, as given. */
    public Map<String, String> asMap() {
        return values;
    }

    /** The keys the workload asked for, given or not, in the order it asked: the parameters it takes. */
    public Set<String> asked() {
        return java.util.Collections.unmodifiableSet(read);
    }

    /** The keys given but never read: parameters the workload does not take. */
    public Set<String> unread() {
        Set<String> unread = new LinkedHashSet<>(values.keySet());
        unread.removeAll(read);
        return unread;
    }

    /** A parameter with a value the workload cannot use: {@code keys: abc (expected: an integer)}. */
    public static IllegalArgumentException invalid(String key, String value, String expected) {
        return new IllegalArgumentException(key + ": " + value + " (expected: " + expected + ")");
    }
}
