package io.ricochet.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Parses the human durations used on command lines: {@code 500ms}, {@code 2s}, {@code 5m}, {@code 1h}, {@code 250us}, or ISO-8601. */
public final class Durations {
    private Durations() {
    }

    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("pt") || s.startsWith("p")) {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            }
            int unitStart = 0;
            while (unitStart < s.length() && (Character.isDigit(s.charAt(unitStart)) || s.charAt(unitStart) == '.')) {
                unitStart++;
            }
            if (unitStart == 0) {
                throw new IllegalArgumentException();
            }
            double amount = Double.parseDouble(s.substring(0, unitStart));
            long nanosPerUnit = switch (s.substring(unitStart)) {
                case "ns" -> 1L;
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s", "" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "h" -> 3_600_000_000_000L;
                default -> throw new IllegalArgumentException();
            };
            return Duration.ofNanos(Math.round(amount * nanosPerUnit));
        } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("duration: " + text + " (expected: e.g. 500ms, 2s, 5m, 1h)");
        }
    }

    /** The shortest of the forms {@link #parse} reads that is exact: {@code 30s}, {@code 500ms}. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        if (nanos % 1_000L == 0) {
            return nanos / 1_000L + "us";
        }
        return nanos + "ns";
    }
}
