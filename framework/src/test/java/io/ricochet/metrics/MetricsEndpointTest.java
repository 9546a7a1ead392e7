package io.ricochet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.RicochetServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MetricsEndpointTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(String url, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
        if (accept != null) {
            request.header("Accept", accept);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesPrometheusTextHealthAndNotFound() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (JvmProcessMetrics jvm = new JvmProcessMetrics();
                RicochetServer server = TestServers.echo(TestServers.config(TransportKind.NIO).build(), registry);
                MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            jvm.bindTo(registry);
            try (FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
                client.send(new byte[] {1, 2, 3});
                client.receive();
            }
            HttpResponse<String> metrics = get(endpoint.metricsUrl(), null);
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
            assertTrue(metrics.body().contains("ricochet_frames_received_total{transport=\"tcp\"} 1.0"), metrics.body());
            assertTrue(metrics.body().contains("ricochet_server_info{io=\"nio\"} 1"));
            assertTrue(metrics.body().contains("process_cpu_usage"));
            assertTrue(metrics.body().contains("jvm_memory_used_bytes"));
            assertTrue(metrics.body().contains("process_memory_rss_bytes"));

            HttpResponse<String> open = get(endpoint.metricsUrl(), "application/openmetrics-text; version=1.0.0");
            assertTrue(open.headers().firstValue("content-type").orElse("").startsWith("application/openmetrics-text"));
            assertTrue(open.body().endsWith("# EOF\n"));

            String base = "http://127.0.0.1:" + endpoint.address().getPort();
            assertEquals(200, get(base + "/health", null).statusCode());
            assertEquals(404, get(base + "/nope", null).statusCode());
        }
    }
}
