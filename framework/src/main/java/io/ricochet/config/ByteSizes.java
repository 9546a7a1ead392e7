package io.ricochet.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes in bytes as command lines write them, in binary units as libonev's sweep and the frame limits count them:
 * {@code 1k} = {@code 1K} = {@code 1KB} = {@code 1KiB} = 1,024; {@code M}, {@code MB}, {@code MiB} = 1,048,576;
 * {@code G}, {@code GB}, {@code GiB} = 1,073,741,824; {@code 64} = {@code 64B}. Units ignore case; {@code 1.5k} is
 * 1536, and a size that comes to a fraction of a byte is refused.
 */
public final class ByteSizes {
    private static final String EXPECTED = "bytes, e.g. 64, 64B, 4k, 4KiB, 1MB, 1.5M";
    private static final Pattern FORM = Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))([a-z]*)");
    private static final BigDecimal KIB = BigDecimal.valueOf(1024);
    private static final Map<String, BigDecimal> UNITS = Map.ofEntries(
            Map.entry("", BigDecimal.ONE), Map.entry("b", BigDecimal.ONE),
            Map.entry("k", KIB), Map.entry("kb", KIB), Map.entry("kib", KIB),
            Map.entry("m", KIB.pow(2)), Map.entry("mb", KIB.pow(2)), Map.entry("mib", KIB.pow(2)),
            Map.entry("g", KIB.pow(3)), Map.entry("gb", KIB.pow(3)), Map.entry("gib", KIB.pow(3)));

    private ByteSizes() {
    }

    /** A size that fits an int, as frame and body lengths are. */
    public static int parseInt(String text) {
        return (int) parse(text, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** A size that fits a long. */
    public static long parseLong(String text) {
        return parse(text, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static long parse(String text, long min, long max) {
        Matcher m = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
        BigDecimal unit = m.matches() ? UNITS.get(m.group(2)) : null;
        if (unit == null) {
            throw new InvalidValueException("size", text, EXPECTED);
        }
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(unit);
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw new InvalidValueException("size", text, "a whole number of bytes, e.g. 1536 or 1.5k");
        }
        if (bytes.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new InvalidValueException("size", text, "at most " + max + " bytes");
        }
        if (bytes.compareTo(BigDecimal.valueOf(min)) < 0) {
            throw new InvalidValueException("size", text, "at least " + min + " bytes");
        }
        return bytes.longValueExact();
    }
}
