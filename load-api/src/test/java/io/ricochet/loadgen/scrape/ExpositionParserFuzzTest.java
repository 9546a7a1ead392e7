package io.ricochet.loadgen.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Any body a server may answer a scrape with: it parses, or is refused with {@link ExpositionException}, never
 * anything else (an OutOfMemoryError or a hang included, which Jazzer reports too). What parses is within the bounds
 * and of the grammar, and reads back the same when written again; {@link MetricsScraper} accepts exactly what the
 * parser accepts.
 */
class ExpositionParserFuzzTest {
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    @FuzzTest(maxDuration = "10s")
    void parsesOrRefusesAndRoundTrips(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<ExpositionParser.Sample> samples = new ArrayList<>();
        try {
            ExpositionParser.parse(text, samples::add);
        } catch (ExpositionException refused) {
            assertTrue(refused.line() >= 1, refused.getMessage());
            assertThrows(ExpositionException.class, () -> MetricsScraper.parse(text));
            return;
        }
        try {
            MetricsScraper.parse(text);
        } catch (ExpositionException e) {
            throw new AssertionError("the scraper refused what the parser read: " + e.getMessage(), e);
        }
        for (ExpositionParser.Sample s : samples) {
            assertTrue(METRIC_NAME.matcher(s.name()).matches(), s.name());
            assertTrue(s.labels().size() <= ExpositionParser.MAX_LABELS, "labels: " + s.labels().size());
            s.labels().keySet().forEach(name -> assertTrue(LABEL_NAME.matcher(name).matches(), name));
            assertTrue(Double.isNaN(s.timestamp()) || Double.isFinite(s.timestamp()), "timestamp " + s.timestamp());
            String line = write(s);
            if (line.length() > ExpositionParser.MAX_LINE_CHARS) {
                continue;
            }
            List<ExpositionParser.Sample> again = new ArrayList<>();
            try {
                ExpositionParser.parse(line, again::add);
            } catch (ExpositionException e) {
                throw new AssertionError("written again as " + line + ": " + e.getMessage(), e);
            }
            assertEquals(1, again.size(), line);
            assertSame(s, again.get(0), line);
        }
    }

    /** {@code s} as one line of the text format, every label value escaped. */
    static String write(ExpositionParser.Sample s) {
        StringBuilder out = new StringBuilder(s.name());
        labels(out, s.labels());
        out.append(' ').append(s.value());
        if (!Double.isNaN(s.timestamp())) {
            out.append(' ').append(s.timestamp());
        }
        if (s.exemplar() != null) {
            out.append(" # ");
            labels(out, s.exemplar().labels());
            out.append(' ').append(s.exemplar().value());
            if (!Double.isNaN(s.exemplar().timestamp())) {
                out.append(' ').append(s.exemplar().timestamp());
            }
        }
        return out.toString();
    }

    private static void labels(StringBuilder out, Map<String, String> labels) {
        out.append('{');
        labels.forEach((name, value) -> out.append(name).append("=\"")
                .append(value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append("\","));
        out.append('}');
    }

    private static void assertSame(ExpositionParser.Sample expected, ExpositionParser.Sample actual, String line) {
        assertEquals(expected.name(), actual.name(), line);
        assertEquals(expected.labels(), actual.labels(), line);
        assertEquals(0, Double.compare(expected.value(), actual.value()), line);
        assertEquals(0, Double.compare(expected.timestamp(), actual.timestamp()), line);
        assertEquals(expected.exemplar() == null, actual.exemplar() == null, line);
        if (expected.exemplar() != null) {
            assertEquals(expected.exemplar().labels(), actual.exemplar().labels(), line);
            assertEquals(0, Double.compare(expected.exemplar().value(), actual.exemplar().value()), line);
            assertEquals(0, Double.compare(expected.exemplar().timestamp(), actual.exemplar().timestamp()), line);
        }
    }
}
