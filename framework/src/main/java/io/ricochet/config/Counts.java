package io.ricochet.config;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts and rates as command lines write them: a number with an optional decimal suffix, {@code k} or {@code K}
 * (thousand), {@code M} (million) or {@code G} (billion): {@code 1500}, {@code 10k}, {@code 1.5k}, {@code 2M}. A
 * lower-case {@code m} is refused: beside a rate's {@code /m} (per minute) it would read as milli or minute.
 */
public final class Counts {
    private static final String EXPECTED = "a number with an optional k, M or G, e.g. 1500, 10k, 1.5M";
    private static final Pattern FORM = Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))([a-zA-Z]*)");
    private static final Map<String, BigDecimal> SUFFIXES = Map.of("", BigDecimal.ONE, "k", BigDecimal.valueOf(1_000),
            "K", BigDecimal.valueOf(1_000), "M", BigDecimal.valueOf(1_000_000), "G", BigDecimal.valueOf(1_000_000_000));

    private Counts() {
    }

    /** A whole count that fits an int: {@code 1.5k} is 1500, {@code 1.2345k} is refused. */
    public static int parseInt(String text) {
        return (int) whole(text, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** A whole count that fits a long. */
    public static long parseLong(String text) {
        return whole(text, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** Any number, for rates and limits: {@code 0.04}, {@code 2.5k}. */
    public static double parseDecimal(String text) {
        return exact(text).doubleValue();
    }

    private static long whole(String text, long min, long max) {
        BigDecimal value = exact(text);
        if (value.stripTrailingZeros().scale() > 0) {
            throw new InvalidValueException("count", text, "a whole number, e.g. 1500, 10k, 1.5k");
        }
        if (value.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new InvalidValueException("count", text, "at most " + max);
        }
        if (value.compareTo(BigDecimal.valueOf(min)) < 0) {
            throw new InvalidValueException("count", text, "at least " + min);
        }
        return value.longValueExact();
    }

    private static BigDecimal exact(String text) {
        Matcher m = FORM.matcher(text.strip());
        BigDecimal multiplier = m.matches() ? SUFFIXES.get(m.group(2)) : null;
        if (multiplier == null) {
            throw new InvalidValueException("count", text, EXPECTED);
        }
        return new BigDecimal(m.group(1)).multiply(multiplier);
    }
}
