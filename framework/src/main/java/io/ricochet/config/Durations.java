package io.ricochet.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The human durations of command lines: {@code 500ms}, {@code 2s}, {@code 1.5s}, {@code 5m}, {@code 1h},
 * {@code 250us}, {@code 10ns}, compounds such as {@code 1m30s} or {@code 1h2m3s} (largest unit first, each once), a
 * bare number of seconds, or ISO-8601 ({@code PT2S}).
 */
public final class Durations {
    private static final String EXPECTED = "e.g. 500ms, 2s, 1m30s, 1h or PT2S";
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");
    private static final Pattern BARE_SECONDS = Pattern.compile("\\d+(?:\\.\\d*)?|\\.\\d+");
    /** Units largest first, as {@link #format} writes them and a compound must order them. */
    private static final List<String> UNITS = List.of("h", "m", "s", "ms", "us", "ns");
    private static final long[] NANOS_PER_UNIT = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L,
        1_000L, 1L};

    private Durations() {
    }

    /** The duration {@code text} writes; an {@link InvalidValueException} naming it and the accepted forms if none. */
    public static Duration parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("p")) {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            }
            if (BARE_SECONDS.matcher(s).matches()) {
                return Duration.ofNanos(nanos(new BigDecimal(s), 1_000_000_000L));
            }
            return Duration.ofNanos(compound(s));
        } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException e) {
            throw new InvalidValueException("duration", text, EXPECTED);
        }
    }

    /** {@code 1m30s}: each part's unit smaller than the one before. */
    private static long compound(String s) {
        Matcher m = PART.matcher(s);
        long total = 0;
        int end = 0;
        int lastUnit = -1;
        while (m.find() && m.start() == end) {
            int unit = UNITS.indexOf(m.group(2).equals("µs") ? "us" : m.group(2));
            if (unit <= lastUnit) {
                throw new IllegalArgumentException("units out of order");
            }
            total = Math.addExact(total, nanos(new BigDecimal(m.group(1)), NANOS_PER_UNIT[unit]));
            lastUnit = unit;
            end = m.end();
        }
        if (end == 0 || end != s.length()) {
            throw new IllegalArgumentException("not a duration");
        }
        return total;
    }

    private static long nanos(BigDecimal amount, long nanosPerUnit) {
        return amount.multiply(BigDecimal.valueOf(nanosPerUnit)).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** As {@link #parse} reads it, exactly and shortest: {@code 30s}, {@code 500ms}, {@code 1m30s}, {@code 0s}. */
    public static String format(Duration d) {
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        if (d.isZero()) {
            return "0s";
        }
        long[] parts = {d.toHours(), d.toMinutesPart(), d.toSecondsPart(), d.toMillisPart(),
            d.toNanosPart() / 1_000 % 1_000, d.toNanosPart() % 1_000};
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] != 0) {
                out.append(parts[i]).append(UNITS.get(i));
            }
        }
        return out.toString();
    }
}
