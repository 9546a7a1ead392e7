package io.ricochet.loadgen.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExpositionParserTest {

    static List<ExpositionParser.Sample> parse(String text) throws ExpositionException {
        List<ExpositionParser.Sample> samples = new ArrayList<>();
        ExpositionParser.parse(text, samples::add);
        return samples;
    }

    /** The one sample named {@code name} with exactly {@code labels}. */
    static ExpositionParser.Sample find(List<ExpositionParser.Sample> samples, String name, Map<String, String> labels) {
        List<ExpositionParser.Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
        assertEquals(1, found.size(), name + labels + " in " + samples.size() + " samples");
        return found.get(0);
    }

    @Test
    void labelValuesAreUnescaped() throws Exception {
        List<ExpositionParser.Sample> samples = parse("""
                # HELP files Open files, by path.
                # TYPE files gauge
                files{path="C:\\\\dir\\\\file",quote="say \\"hi\\"",lines="one\\ntwo",brace="a} 9 {b",other="\\t"} 3
                """);
        ExpositionParser.Sample s = samples.get(0);
        assertEquals("C:\\dir\\file", s.label("path"));
        assertEquals("say \"hi\"", s.label("quote"));
        assertEquals("one\ntwo", s.label("lines"));
        assertEquals("a} 9 {b", s.label("brace"));
        // An escape of another character is kept as written, as Prometheus keeps it.
        assertEquals("\\t", s.label("other"));
        assertEquals(List.of("path", "quote", "lines", "brace", "other"), List.copyOf(s.labels().keySet()));
        assertEquals(3.0, s.value());
        assertEquals(1, samples.size());
    }

    @Test
    void openMetricsWithUnitsCreatedExemplarsTimestampsAndEof() throws Exception {
        List<ExpositionParser.Sample> samples = parse("""
                # TYPE requests counter
                # UNIT requests requests
                # HELP requests Requests, with a \\\\ and a \\n in the help.
                requests_total{path="/a"} 17 1700000000.123 # {trace_id="abc\\"def"} 1.5 1700000000.001
                requests_created{path="/a"} 1.7e9
                # TYPE latency_seconds histogram
                latency_seconds_bucket{le="0.5"} 3
                latency_seconds_bucket{le="+Inf"} 4 # {trace_id="x"} 9.0
                latency_seconds_count 4
                latency_seconds_sum NaN
                # TYPE temp gauge
                temp -Inf
                temp2 +Inf
                # EOF
                """);
        ExpositionParser.Sample total = samples.get(0);
        assertEquals("requests_total", total.name());
        assertEquals(17.0, total.value());
        assertEquals(1700000000.123, total.timestamp());
        assertEquals(Map.of("trace_id", "abc\"def"), total.exemplar().labels());
        assertEquals(1.5, total.exemplar().value());
        assertEquals(1700000000.001, total.exemplar().timestamp());
        assertEquals(1.7e9, find(samples, "requests_created", Map.of("path", "/a")).value());
        ExpositionParser.Sample inf = find(samples, "latency_seconds_bucket", Map.of("le", "+Inf"));
        assertEquals(4.0, inf.value());
        assertTrue(Double.isNaN(inf.timestamp()));
        assertEquals(9.0, inf.exemplar().value());
        assertTrue(Double.isNaN(inf.exemplar().timestamp()));
        assertNull(find(samples, "latency_seconds_count", Map.of()).exemplar());
        assertTrue(Double.isNaN(find(samples, "latency_seconds_sum", Map.of()).value()));
        assertEquals(Double.NEGATIVE_INFINITY, find(samples, "temp", Map.of()).value());
        assertEquals(Double.POSITIVE_INFINITY, find(samples, "temp2", Map.of()).value());
        assertEquals(8, samples.size());
    }

    @Test
    void textFormatLeniencies() throws Exception {
        List<ExpositionParser.Sample> samples = parse("""
                # a free comment
                #no space: a comment too

                \tup{ job = "a" , } \t 1 1700000000000\r
                up 1e-3
                up{} .5
                up -0.
                """);
        assertEquals(Map.of("job", "a"), samples.get(0).labels());
        assertEquals(1700000000000.0, samples.get(0).timestamp());
        assertEquals(List.of(1.0, 1e-3, 0.5, -0.0), samples.stream().map(ExpositionParser.Sample::value).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "up",
            "up{job=\"a\"}",
            "up{job=\"a\"}1",
            "up 1 2 3",
            "up 1.0d",
            "up 0x10",
            "up 1_000",
            "up Infinityy",
            "up 1e",
            "up .",
            "up 1 NaN",
            "up 1 # 2",
            "up{job=\"a} 1",
            "up{job=\"a\\",
            "up{job=\"a\" 1",
            "up{job=a} 1",
            "up{1job=\"a\"} 1",
            "up{,} 1",
            "up{job=\"a\",job=\"b\"} 1",
            "up{job=\"a\"job=\"b\"} 1",
            "1up 1",
            "up{job=\"a\"} 1 # {trace_id=\"x\"}",
            "up{job=\"a\"} 1 # x 1",
            "# TYPE up gauges",
            "# TYPE up",
            "# TYPE 1up gauge",
            "# TYPE up gauge extra",
            "# HELP",
            "# HELP up{",
            "# EOF\nup 1",
    })
    void refused(String text) {
        assertThrows(ExpositionException.class, () -> parse(text));
    }

    @Test
    void theRefusedLineIsNamed() {
        ExpositionException e = assertThrows(ExpositionException.class, () -> parse("up 1\n\ndown x\n"));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().startsWith("line 3: value x"), e.getMessage());
    }

    @Test
    void everyInputIsBounded() throws Exception {
        String manyLabels = "up{" + java.util.stream.IntStream.range(0, ExpositionParser.MAX_LABELS + 1)
                .mapToObj(i -> "l" + i + "=\"v\"").collect(Collectors.joining(",")) + "} 1";
        assertTrue(assertThrows(ExpositionException.class, () -> parse(manyLabels)).getMessage()
                .contains("more than " + ExpositionParser.MAX_LABELS + " labels"));
        String atTheLimit = "up{" + java.util.stream.IntStream.range(0, ExpositionParser.MAX_LABELS)
                .mapToObj(i -> "l" + i + "=\"v\"").collect(Collectors.joining(",")) + "} 1";
        assertEquals(ExpositionParser.MAX_LABELS, parse(atTheLimit).get(0).labels().size());

        String longLine = "up{v=\"" + "x".repeat(ExpositionParser.MAX_LINE_CHARS) + "\"} 1";
        assertTrue(assertThrows(ExpositionException.class, () -> parse(longLine)).getMessage()
                .contains("expected: <= " + ExpositionParser.MAX_LINE_CHARS));

        String longNumber = "up 1" + "0".repeat(ExpositionParser.MAX_NUMBER_CHARS);
        assertThrows(ExpositionException.class, () -> parse(longNumber));
        assertEquals(1e63, parse("up 1" + "0".repeat(ExpositionParser.MAX_NUMBER_CHARS - 1)).get(0).value());
    }

    /**
     * The Prometheus Java client's own writers (text 0.0.4 and OpenMetrics) as a second opinion: label values with
     * every escape, a counter's {@code _total} and {@code _created}, a histogram's {@code +Inf} bucket, exemplars,
     * units and {@code # EOF} read back as written.
     */
    @ParameterizedTest
    @ValueSource(strings = {"text", "openmetrics"})
    void whatThePrometheusClientWritesReadsBack(String format) throws Exception {
        Labels labels = Labels.of("path", "C:\\dir", "quote", "say \"hi\"", "lines", "one\ntwo");
        Exemplar exemplar = Exemplar.builder().value(0.25).traceId("abc").spanId("def").timestampMillis(1_700_000_000_123L)
                .build();
        MetricSnapshots snapshots = MetricSnapshots.of(
                CounterSnapshot.builder().name("requests").help("Requests \\ with\nescapes").dataPoint(
                        CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(17).exemplar(exemplar)
                                .createdTimestampMillis(1_600_000_000_000L).build()).build(),
                GaugeSnapshot.builder().name("temperature_celsius").unit(Unit.CELSIUS).dataPoint(
                        GaugeSnapshot.GaugeDataPointSnapshot.builder().value(-3.5).build()).build(),
                HistogramSnapshot.builder().name("latency_seconds").dataPoint(
                        HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels).sum(2.5)
                                .classicHistogramBuckets(ClassicHistogramBuckets.of(new double[] {0.5,
                                        Double.POSITIVE_INFINITY}, new long[] {3, 1}))
                                .exemplars(Exemplars.of(exemplar)).build()).build());
        ExpositionFormatWriter writer = format.equals("text") ? new PrometheusTextFormatWriter(true)
                : new OpenMetricsTextFormatWriter(true, true);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, snapshots);
        String text = out.toString(StandardCharsets.UTF_8);
        List<ExpositionParser.Sample> samples = parse(text);

        Map<String, String> expected = Map.of("path", "C:\\dir", "quote", "say \"hi\"", "lines", "one\ntwo");
        ExpositionParser.Sample requests = find(samples, "requests_total", expected);
        assertEquals(17.0, requests.value(), text);
        assertEquals(1.6e9, find(samples, "requests_created", expected).value(), text);
        assertEquals(-3.5, find(samples, "temperature_celsius", Map.of()).value(), text);
        Map<String, String> inf = new java.util.HashMap<>(expected);
        inf.put("le", "+Inf");
        assertEquals(4.0, find(samples, "latency_seconds_bucket", inf).value(), text);
        assertEquals(2.5, find(samples, "latency_seconds_sum", expected).value(), text);
        if (format.equals("openmetrics")) {
            assertTrue(text.endsWith("# EOF\n"), text);
            assertNotNull(requests.exemplar(), text);
            assertEquals(Map.of("trace_id", "abc", "span_id", "def"), requests.exemplar().labels());
            assertEquals(0.25, requests.exemplar().value());
            assertEquals(1_700_000_000.123, requests.exemplar().timestamp());
        }
    }

    /**
     * Debian's prometheus-node-exporter 1.5.0, scraped on loopback, plain and asking for OpenMetrics (which this
     * version does not offer: it answered text 0.0.4 both times). Its textfile collector read a file with label values
     * that need every escape, which the exporter wrote out again, escaped by its own (Go) writer:
     * <pre>
     * ricochet_test_escapes{path="C:\\dir\\file",quote="say \"hi\"",lines="one\ntwo"} 42
     * ricochet_test_escapes{path="plain",quote="",lines=""} -1.5e-3
     * </pre>
     * Every sample line parses, with these values.
     */
    @ParameterizedTest
    @ValueSource(strings = {"node-exporter-1.5.0.prom", "node-exporter-1.5.0-openmetrics-accept.prom"})
    void aNodeExportersMetrics(String capture) throws Exception {
        String text = resource(capture);
        List<ExpositionParser.Sample> samples = parse(text);
        long sampleLines = text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        assertEquals(sampleLines, samples.size());
        assertTrue(samples.size() > 500, "samples: " + samples.size());
        assertEquals(6.82, find(samples, "node_load1", Map.of()).value());
        assertEquals(2.5276510208e10, find(samples, "node_memory_MemTotal_bytes", Map.of()).value());
        assertEquals(0.0, find(samples, "go_gc_duration_seconds", Map.of("quantile", "0.25")).value());
        assertEquals(1.0, find(samples, "node_exporter_build_info", Map.of("branch", "debian/sid", "goarch", "amd64",
                "goos", "linux", "goversion", "go1.19.8", "revision", "1.5.0-1+b6", "version", "1.5.0")).value());
        assertEquals(Map.of("domainname", "(none)", "machine", "x86_64", "nodename", "vm", "release", "6.18.44-fc-v657",
                "sysname", "Linux", "version", "#1 SMP PREEMPT_DYNAMIC @0"),
                samples.stream().filter(s -> s.name().equals("node_uname_info")).findFirst().orElseThrow().labels());
        assertEquals(10218.97, find(samples, "node_cpu_seconds_total", Map.of("cpu", "0", "mode", "idle")).value());
        assertEquals(8.381059072e10, find(samples, "node_filesystem_avail_bytes",
                Map.of("device", "/dev/vda", "fstype", "ext4", "mountpoint", "/")).value());
        assertEquals(42.0, find(samples, "ricochet_test_escapes",
                Map.of("path", "C:\\dir\\file", "quote", "say \"hi\"", "lines", "one\ntwo")).value());
        assertEquals(-0.0015, find(samples, "ricochet_test_escapes", Map.of("path", "plain", "quote", "", "lines", ""))
                .value());
        // The exporter's own empty label values ("duplex" of lo, and the like) are kept as empty strings.
        assertEquals("", find(samples, "node_network_info", Map.of("address", "00:00:00:00:00:00", "broadcast",
                "00:00:00:00:00:00", "device", "lo", "duplex", "", "ifalias", "", "operstate", "unknown"))
                .label("duplex"));
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ExpositionParserTest.class.getResourceAsStream(name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
