package io.ricochet.loadgen.scrape;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads a metrics exposition in the Prometheus text format (version 0.0.4) or OpenMetrics 1.0 text, line by line, and
 * hands each sample to a consumer. The grammar it reads, one line at a time:
 *
 * <pre>
 * line      = blank | comment | sample
 * comment   = "#" text                                  ; ignored, except:
 *           | "# HELP " name [ " " docstring ]
 *           | "# TYPE " name " " type                   ; counter, gauge, histogram, summary, untyped,
 *                                                       ; unknown, gaugehistogram, stateset, info
 *           | "# UNIT " name [ " " unit ]
 *           | "# EOF"                                   ; OpenMetrics: the end; only blank lines may follow
 * sample    = name [ labels ] " " value [ " " timestamp ] [ " # " labels " " value [ " " timestamp ] ]
 *                                                       ; the last part an OpenMetrics exemplar
 * name      = [a-zA-Z_:] [a-zA-Z0-9_:]*
 * labels    = "{" [ label { "," label } [ "," ] ] "}"
 * label     = labelname "=" '"' escaped '"'             ; labelname = [a-zA-Z_] [a-zA-Z0-9_]*
 * escaped   = { any character but '"' and '\' | "\\" | "\"" | "\n" }
 * value     = a decimal float | [+-]Inf | NaN           ; as Go's ParseFloat writes them, case ignored
 * timestamp = a finite value                            ; milliseconds in 0.0.4, seconds in OpenMetrics
 * </pre>
 *
 * <p>Where the two formats differ the reader takes either: spaces and tabs may stand for the single space, and
 * around the labels' tokens; a line may end in {@code \r}; blank lines are skipped; and a backslash before any other
 * character is kept as written, as Prometheus keeps it. Metadata lines are checked, not returned.
 *
 * <p>Every input is bounded before anything is built from it: a line of more than {@link #MAX_LINE_CHARS} characters,
 * more than {@link #MAX_LABELS} labels on a sample or a number of more than {@link #MAX_NUMBER_CHARS} characters is
 * refused. What one sample allocates is thus bounded by its line, and a sample is handed on before the next line is
 * read: the reader keeps nothing of the lines it has read. The body's own size is the caller's to bound (see
 * {@link MetricsScraper#MAX_BODY_BYTES}). Anything that does not follow the grammar is refused with an
 * {@link ExpositionException} naming the line, and nothing else is thrown (but what the consumer throws).
 *
 * <p>Longer than 300 lines: the grammar above is read in one place, a method per rule on the line's {@code Cursor}.
 */
public final class ExpositionParser {
    /** The longest line read, in characters. */
    public static final int MAX_LINE_CHARS = 64 * 1024;
    /** The most labels on one sample or exemplar. */
    public static final int MAX_LABELS = 128;
    /** The longest value or timestamp, in characters. */
    public static final int MAX_NUMBER_CHARS = 64;

    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped", "unknown",
            "gaugehistogram", "stateset", "info");

    /**
     * One sample.
     *
     * @param labels    in the order written; empty if none
     * @param timestamp as written (milliseconds in 0.0.4, seconds in OpenMetrics), or NaN if none
     * @param exemplar  its OpenMetrics exemplar, or null
     */
    public record Sample(String name, Map<String, String> labels, double value, double timestamp, Exemplar exemplar) {
        /** The value of label {@code name}, or null if the sample has none. */
        public String label(String name) {
            return labels.get(name);
        }
    }

    /** @param timestamp in seconds, or NaN if none */
    public record Exemplar(Map<String, String> labels, double value, double timestamp) {
    }

    private ExpositionParser() {
    }

    /**
     * Reads {@code text} and hands each of its samples, in order, to {@code each}.
     *
     * @throws ExpositionException at the first line that is not of the grammar or exceeds a bound
     */
    public static void parse(String text, Consumer<Sample> each) throws ExpositionException {
        int n = text.length();
        int start = 0;
        int line = 0;
        boolean eof = false;
        while (start < n) {
            line++;
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = n;
            }
            if (end - start > MAX_LINE_CHARS) {
                throw new ExpositionException(line, (end - start) + " characters (expected: <= " + MAX_LINE_CHARS + ")");
            }
            int stop = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
            Cursor c = new Cursor(text, start, stop, line);
            if (eof) {
                c.skipBlanks();
                if (!c.atEnd()) {
                    throw c.fail("text after # EOF");
                }
            } else {
                eof = c.line(each);
            }
            start = end + 1;
        }
    }

    /** One line being read. */
    private static final class Cursor {
        private final String s;
        private final int begin;
        private final int end;
        private final int line;
        private int pos;

        Cursor(String s, int begin, int end, int line) {
            this.s = s;
            this.begin = begin;
            this.end = end;
            this.line = line;
            this.pos = begin;
        }

        /** Reads the line; true if it is {@code # EOF}. */
        boolean line(Consumer<Sample> each) throws ExpositionException {
            skipBlanks();
            if (atEnd()) {
                return false;
            }
            if (peek() == '#') {
                return comment();
            }
            each.accept(sample());
            return false;
        }

        private boolean comment() throws ExpositionException {
            pos++;
            if (!blanks()) {
                return false;
            }
            String keyword = token();
            switch (keyword) {
                case "EOF" -> {
                    skipBlanks();
                    // "# EOF and more" is a comment like any other in 0.0.4.
                    return atEnd();
                }
                case "HELP", "UNIT" -> {
                    requireBlanks("before the metric name");
                    metricName();
                    if (!atEnd() && !blanks()) {
                        throw fail("expected a space after the metric name");
                    }
                    // The docstring or unit: any text.
                }
                case "TYPE" -> {
                    requireBlanks("before the metric name");
                    metricName();
                    requireBlanks("before the type");
                    String type = token();
                    if (!TYPES.contains(type)) {
                        throw fail("type " + clip(type) + " (expected: one of " + TYPES + ")");
                    }
                    skipBlanks();
                    if (!atEnd()) {
                        throw fail("text after the type");
                    }
                }
                default -> {
                    // Any other comment.
                }
            }
            return false;
        }

        private Sample sample() throws ExpositionException {
            String name = metricName();
            boolean spaced = blanks();
            Map<String, String> labels = Map.of();
            if (!atEnd() && peek() == '{') {
                labels = labels();
                requireBlanks("before the value");
            } else if (!spaced || atEnd()) {
                throw fail("expected a space and the value after the metric name");
            }
            double value = number("value");
            double timestamp = Double.NaN;
            Exemplar exemplar = null;
            skipBlanks();
            if (!atEnd() && peek() != '#') {
                timestamp = timestamp();
                skipBlanks();
            }
            if (!atEnd() && peek() == '#') {
                pos++;
                requireBlanks("after the exemplar's #");
                if (atEnd() || peek() != '{') {
                    throw fail("expected the exemplar's labels");
                }
                Map<String, String> exemplarLabels = labels();
                requireBlanks("before the exemplar's value");
                double exemplarValue = number("exemplar value");
                double exemplarTimestamp = Double.NaN;
                skipBlanks();
                if (!atEnd()) {
                    exemplarTimestamp = timestamp();
                    skipBlanks();
                }
                exemplar = new Exemplar(exemplarLabels, exemplarValue, exemplarTimestamp);
            }
            if (!atEnd()) {
                throw fail("text after the sample");
            }
            return new Sample(name, labels, value, timestamp, exemplar);
        }

        private Map<String, String> labels() throws ExpositionException {
            pos++;
            Map<String, String> labels = new LinkedHashMap<>();
            while (true) {
                skipBlanks();
                if (!atEnd() && peek() == '}') {
                    pos++;
                    break;
                }
                if (labels.size() == MAX_LABELS) {
                    throw fail("more than " + MAX_LABELS + " labels");
                }
                String label = labelName();
                skipBlanks();
                expect('=');
                skipBlanks();
                expect('"');
                String value = quoted();
                if (labels.putIfAbsent(label, value) != null) {
                    throw fail("label " + label + " twice");
                }
                skipBlanks();
                if (atEnd()) {
                    throw fail("expected , or }");
                }
                char c = s.charAt(pos++);
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    pos--;
                    throw fail("expected , or }");
                }
            }
            return Collections.unmodifiableMap(labels);
        }

        /** A label value after its opening quote, to and past its closing one, unescaped. */
        private String quoted() throws ExpositionException {
            StringBuilder out = null;
            int from = pos;
            while (true) {
                if (atEnd()) {
                    throw fail("unterminated label value");
                }
                char c = s.charAt(pos);
                if (c == '"') {
                    String value = out == null ? s.substring(from, pos) : out.append(s, from, pos).toString();
                    pos++;
                    return value;
                }
                if (c != '\\') {
                    pos++;
                    continue;
                }
                if (out == null) {
                    out = new StringBuilder(pos - from + 16);
                }
                out.append(s, from, pos);
                pos++;
                if (atEnd()) {
                    throw fail("unterminated label value");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '\\' -> out.append('\\');
                    case '"' -> out.append('"');
                    case 'n' -> out.append('\n');
                    default -> out.append('\\').append(e);
                }
                from = pos;
            }
        }

        private String metricName() throws ExpositionException {
            int from = pos;
            if (atEnd() || !nameStart(peek()) && peek() != ':') {
                throw fail("expected a metric name");
            }
            pos++;
            while (!atEnd() && (namePart(peek()) || peek() == ':')) {
                pos++;
            }
            return s.substring(from, pos);
        }

        private String labelName() throws ExpositionException {
            int from = pos;
            if (atEnd() || !nameStart(peek())) {
                throw fail("expected a label name");
            }
            pos++;
            while (!atEnd() && namePart(peek())) {
                pos++;
            }
            return s.substring(from, pos);
        }

        private static boolean nameStart(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
        }

        private static boolean namePart(char c) {
            return nameStart(c) || c >= '0' && c <= '9';
        }

        private double timestamp() throws ExpositionException {
            double t = number("timestamp");
            if (!Double.isFinite(t)) {
                throw fail("timestamp " + t + " (expected: finite)");
            }
            return t;
        }

        /** A value: a decimal float, or Inf or NaN with any sign and case, as Go's ParseFloat reads them. */
        private double number(String what) throws ExpositionException {
            int from = pos;
            while (!atEnd() && peek() != ' ' && peek() != '\t') {
                if (pos - from == MAX_NUMBER_CHARS) {
                    throw fail(what + ": longer than " + MAX_NUMBER_CHARS + " characters");
                }
                pos++;
            }
            String t = s.substring(from, pos);
            switch (t.toLowerCase(Locale.ROOT)) {
                case "nan", "+nan", "-nan" -> {
                    return Double.NaN;
                }
                case "inf", "+inf", "infinity", "+infinity" -> {
                    return Double.POSITIVE_INFINITY;
                }
                case "-inf", "-infinity" -> {
                    return Double.NEGATIVE_INFINITY;
                }
                default -> {
                    if (!decimal(t)) {
                        pos = from;
                        throw fail(what + " " + clip(t) + " (expected: a number, Inf or NaN)");
                    }
                    return Double.parseDouble(t);
                }
            }
        }

        /** {@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?}: what Double.parseDouble reads alike. */
        private static boolean decimal(String t) {
            int i = 0;
            int n = t.length();
            if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
                i++;
            }
            int start = i;
            i = afterDigits(t, i);
            int digits = i - start;
            if (i < n && t.charAt(i) == '.') {
                int fraction = i + 1;
                i = afterDigits(t, fraction);
                digits += i - fraction;
            }
            if (digits == 0) {
                return false;
            }
            if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
                i++;
                if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
                    i++;
                }
                int exponent = i;
                i = afterDigits(t, i);
                if (i == exponent) {
                    return false;
                }
            }
            return i == n;
        }

        /** The index after the run of ASCII digits that starts at {@code i} (which is {@code i} if there is none). */
        private static int afterDigits(String t, int i) {
            while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
                i++;
            }
            return i;
        }

        /** A run of characters up to a blank or the line's end. */
        private String token() {
            int from = pos;
            while (!atEnd() && peek() != ' ' && peek() != '\t') {
                pos++;
            }
            return s.substring(from, pos);
        }

        private void expect(char c) throws ExpositionException {
            if (atEnd() || peek() != c) {
                throw fail("expected " + c);
            }
            pos++;
        }

        private void requireBlanks(String where) throws ExpositionException {
            if (!blanks()) {
                throw fail("expected a space " + where);
            }
        }

        /** Skips spaces and tabs; true if there were any. */
        private boolean blanks() {
            int from = pos;
            skipBlanks();
            return pos > from;
        }

        private void skipBlanks() {
            while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
                pos++;
            }
        }

        private boolean atEnd() {
            return pos >= end;
        }

        private char peek() {
            return s.charAt(pos);
        }

        private ExpositionException fail(String what) {
            return new ExpositionException(line, what + " at column " + (pos - begin + 1));
        }

        /** At most 40 characters of {@code t}, for a message. */
        private static String clip(String t) {
            return t.length() <= 40 ? t : t.substring(0, 40) + "...";
        }
    }
}
