package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.metrics.GeneratorMetrics;
import io.ricochet.metrics.JvmProcessMetrics;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * k8s/grafana's dashboard parses, and every series it queries is one the load generator's {@code --metrics-port} or
 * the echo server's {@code /metrics} exposes: a renamed meter fails here, not in someone's empty panel.
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("..", "k8s", "grafana", "ricochet-dashboard.json");
    /** A metric name where a query uses it: before a selector, a range or the end of a label_values argument. */
    private static final Pattern QUERIED = Pattern.compile("([a-z_:][a-z0-9_:]*)\\s*(?=\\{|\\[|,\\s*instance\\))");
    private static final Pattern EXPOSED = Pattern.compile("^([a-z_:][a-z0-9_:]*)[{ ]", Pattern.MULTILINE);

    @Test
    void everyQueriedSeriesIsExposedByTheGeneratorOrTheServer() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queried.addAll(names(target.get("expr").asText()));
                assertEquals("${DS_PROMETHEUS}", target.get("datasource").get("uid").asText(), panel.toString());
            }
        }
        for (JsonNode variable : dashboard.get("templating").get("list")) {
            queried.addAll(names(variable.get("definition").asText()));
        }
        assertTrue(queried.size() > 10, queried.toString());
        Set<String> exposed = new HashSet<>(exposedNames(generatorScrape()));
        exposed.addAll(exposedNames(serverScrape()));
        Set<String> missing = new TreeSet<>(queried);
        missing.removeAll(exposed);
        assertTrue(missing.isEmpty(), "queried but exposed by neither: " + missing);
    }

    /**
     * Both sides expose process_cpu_usage and the JVM's series: a variable whose "All" were {@code .*} would draw the
     * generator's CPU as the server's. And a quantile of a _seconds histogram is drawn in seconds.
     */
    @Test
    void eachSidesPanelsSeeOnlyThatSideAndQuantilesAreInSeconds() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        for (JsonNode variable : dashboard.get("templating").get("list")) {
            assertFalse(variable.has("allValue"), variable.toString());
        }
        int quantilePanels = 0;
        for (JsonNode panel : dashboard.get("panels")) {
            boolean quantile = false;
            for (JsonNode target : panel.path("targets")) {
                quantile |= target.get("expr").asText().startsWith("histogram_quantile(");
            }
            if (quantile) {
                quantilePanels++;
                assertEquals("s", panel.get("fieldConfig").get("defaults").get("unit").asText(), panel.get("title").asText());
            }
        }
        assertEquals(2, quantilePanels, "latency and connect time");
    }

    private static Set<String> names(String expr) {
        Set<String> names = new HashSet<>();
        Matcher m = QUERIED.matcher(expr);
        while (m.find()) {
            names.add(m.group(1));
        }
        assertFalse(names.isEmpty(), expr);
        return names;
    }

    private static Set<String> exposedNames(String text) {
        Set<String> names = new HashSet<>();
        Matcher m = EXPOSED.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** What {@code --metrics-port} serves: the generator's figures and its JVM's. */
    private static String generatorScrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (JvmProcessMetrics jvm = new JvmProcessMetrics()) {
            jvm.bindTo(registry);
            registry.getPrometheusRegistry().register(new GeneratorMetrics());
            return registry.scrape();
        }
    }

    /** The echo server's /metrics, as the embedded one serves it. */
    private static String serverScrape() throws Exception {
        try (EmbeddedTarget server = new EmbeddedTarget(LengthField.TWO, 4094, 1, Duration.ofSeconds(30), false, null,
                null, null)) {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.metricsUri()).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }
    }
}
