package io.ricochet.loadgen.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.stats.RunStats;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The generator's Prometheus figures are the sum of the intervals it was handed, rendered as Prometheus text. */
class GeneratorMetricsTest {

    private static Histogram values(long... us) {
        Histogram h = RunStats.newHistogram();
        for (long v : us) {
            h.recordValue(v);
        }
        return h;
    }

    private static Interval interval(int connections, RunStats.Counts delta, Histogram latency, Histogram service,
            Histogram connect) {
        return new Interval(0, 1, 0, 1000, connections, delta, latency, service, connect, null, 0);
    }

    private static String scrape(GeneratorMetrics metrics) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.getPrometheusRegistry().register(metrics);
        return registry.scrape();
    }

    private static double value(String text, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(text);
        assertTrue(m.find(), series + " in\n" + text);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void countersAddUpTheIntervalsAndTheGaugeIsTheLastOne() {
        GeneratorMetrics metrics = new GeneratorMetrics();
        metrics.accept(interval(10, new RunStats.Counts(100, 90, 2, 3, 0, 0, 5_760, 10, 1), values(80), null,
                values(300)));
        metrics.accept(interval(7, new RunStats.Counts(50, 40, 0, 1, 0, 0, 2_560, 0, 2), values(90), null, values()));
        String text = scrape(metrics);
        assertEquals(150, value(text, "ricochet_loadgen_requests_sent_total"));
        assertEquals(130, value(text, "ricochet_loadgen_replies_total{result=\"ok\"}"));
        assertEquals(2, value(text, "ricochet_loadgen_replies_total{result=\"bad\"}"));
        assertEquals(4, value(text, "ricochet_loadgen_errors_total"));
        assertEquals(8_320, value(text, "ricochet_loadgen_reply_bytes_total"));
        assertEquals(10, value(text, "ricochet_loadgen_connects_total"));
        assertEquals(3, value(text, "ricochet_loadgen_connect_failures_total"));
        assertEquals(7, value(text, "ricochet_loadgen_connections"));
    }

    @Test
    void latencyBucketsAreCumulativeInSecondsAndKeepServiceApartFromCorrected() {
        GeneratorMetrics metrics = new GeneratorMetrics();
        // Open loop: the reported latency is corrected, the service time comes beside it.
        metrics.accept(interval(1, RunStats.Counts.ZERO, values(40, 200, 3_000, 20_000_000), values(40, 200, 300, 400),
                null));
        String text = scrape(metrics);
        String corrected = "ricochet_loadgen_latency_seconds_bucket{kind=\"corrected\",le=";
        assertEquals(1, value(text, corrected + "\"5.0E-5\"}"));
        assertEquals(2, value(text, corrected + "\"2.5E-4\"}"));
        assertEquals(3, value(text, corrected + "\"0.005\"}"));
        assertEquals(3, value(text, corrected + "\"10.0\"}"));
        assertEquals(4, value(text, corrected + "\"+Inf\"}"));
        assertEquals(4, value(text, "ricochet_loadgen_latency_seconds_count{kind=\"corrected\"}"));
        String service = "ricochet_loadgen_latency_seconds_bucket{kind=\"service\",le=";
        assertEquals(2, value(text, service + "\"2.5E-4\"}"));
        assertEquals(4, value(text, service + "\"5.0E-4\"}"));
        assertEquals(0.00094, value(text, "ricochet_loadgen_latency_seconds_sum{kind=\"service\"}"), 1e-5);
    }

    @Test
    void aControllersClosedLoopIntervalWithAnEmptyServiceHistogramIsServiceTimeToo() {
        GeneratorMetrics metrics = new GeneratorMetrics();
        metrics.accept(interval(1, RunStats.Counts.ZERO, values(100, 100), values(), null));
        String text = scrape(metrics);
        assertEquals(2, value(text, "ricochet_loadgen_latency_seconds_count{kind=\"service\"}"));
        assertEquals(0, value(text, "ricochet_loadgen_latency_seconds_count{kind=\"corrected\"}"));
    }

    @Test
    void closedLoopLatencyIsServiceTime() {
        GeneratorMetrics metrics = new GeneratorMetrics();
        metrics.accept(interval(1, RunStats.Counts.ZERO, values(100, 100), null, null));
        String text = scrape(metrics);
        assertEquals(2, value(text, "ricochet_loadgen_latency_seconds_count{kind=\"service\"}"));
        assertEquals(0, value(text, "ricochet_loadgen_latency_seconds_count{kind=\"corrected\"}"));
    }
}
