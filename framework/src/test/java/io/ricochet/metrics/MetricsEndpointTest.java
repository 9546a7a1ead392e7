package io.ricochet.metrics;

import static io.ricochet.metrics.RawHttpConnection.httpGet;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.server.RicochetServer;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class MetricsEndpointTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SHORT_IDLE = Duration.ofMillis(300);
    private static final int PIPELINED_FLOOD = 2_000;
    /** Answers of this many kilobytes, 16 of them, are several times what the loopback socket buffers hold. */
    private static final int LARGE_SCRAPE_KIB = 512;
    private static final int SMALL_RECEIVE_BUFFER = 4096;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(String url, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
        if (accept != null) {
            request.header("Accept", accept);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String base(MetricsEndpoint endpoint) {
        return "http://127.0.0.1:" + endpoint.address().getPort();
    }

    /** A registry whose scrape is a few kilobytes, so queued answers add up quickly. */
    private static PrometheusMeterRegistry registryWithCounters(int counters) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        for (int i = 0; i < counters; i++) {
            Counter.builder("test.counter").tag("index", Integer.toString(i)).register(registry).increment(i);
        }
        return registry;
    }

    /** A scrape of about {@link #LARGE_SCRAPE_KIB} KiB: counters with 1 KiB tag values. */
    private static PrometheusMeterRegistry registryWithLargeScrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        String padding = "x".repeat(1000);
        for (int i = 0; i < LARGE_SCRAPE_KIB; i++) {
            Counter.builder("test.large").tag("payload", padding + i).register(registry);
        }
        return registry;
    }

    /**
     * Writes on a thread of its own: a server that stops reading may leave the write blocked until the socket
     * closes, which must not hold up a shared pool.
     */
    private static CompletableFuture<Void> sendInBackground(RawHttpConnection connection, byte[] bytes) {
        return CompletableFuture.runAsync(() -> {
            try {
                connection.send(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, task -> {
            Thread sender = new Thread(task, "raw-http-sender");
            sender.setDaemon(true);
            sender.start();
        });
    }

    private static byte[] pipelined(String request, int count) {
        return request.repeat(count).getBytes(StandardCharsets.ISO_8859_1);
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
            assertTrue(metrics.body().contains(
                    "ricochet_frames_received_total{io=\"nio\",name=\"ricochet\",protocol=\"tcp\",role=\"server\"} 1.0"),
                    metrics.body());
            assertTrue(metrics.body().contains("process_cpu_usage"));
            assertTrue(metrics.body().contains("jvm_memory_used_bytes"));
            assertTrue(metrics.body().contains("process_memory_rss_bytes"));

            HttpResponse<String> open = get(endpoint.metricsUrl(), "application/openmetrics-text; version=1.0.0");
            assertTrue(open.headers().firstValue("content-type").orElse("").startsWith("application/openmetrics-text"));
            assertTrue(open.body().endsWith("# EOF\n"));

            HttpResponse<String> health = get(base(endpoint) + "/health", null);
            assertEquals(200, health.statusCode());
            assertEquals("ok\n", health.body());
            assertEquals(404, get(base(endpoint) + "/nope", null).statusCode());
        }
    }

    @Test
    void answersPipelinedKeepAliveHeadAndOtherMethodsInOrder() throws Exception {
        PrometheusMeterRegistry registry = registryWithCounters(3);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry);
                RawHttpConnection connection = RawHttpConnection.open(endpoint.address())) {
            connection.send(httpGet("/health") + "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n" + httpGet("/metrics"));
            RawHttpConnection.Response health = connection.readResponse();
            assertEquals(200, health.status());
            assertEquals("ok\n", health.body());
            RawHttpConnection.Response head = connection.readResponse(true);
            assertEquals(200, head.status());
            assertEquals(registry.scrape().length(), Integer.parseInt(head.header("content-length")));
            assertEquals(405, connection.readResponse().status());
            RawHttpConnection.Response metrics = connection.readResponse();
            assertEquals(200, metrics.status());
            assertTrue(metrics.body().contains("test_counter_total{index=\"2\"} 2.0"), metrics.body());

            // Keep-alive: the same connection still serves after the pipeline drained.
            connection.send(httpGet("/health"));
            assertEquals(200, connection.readResponse().status());
        }
    }

    @Test
    void aClientThatPipelinesAndNeverReadsHoldsAtMostOneAnswerInTheServer() throws Exception {
        PrometheusMeterRegistry registry = registryWithLargeScrape();
        int scrapeBytes = registry.scrape().length();
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry);
                RawHttpConnection flood = RawHttpConnection.open(endpoint.address(), SMALL_RECEIVE_BUFFER)) {
            // As many as may be pipelined; their answers are several times what the socket buffers take.
            flood.send(pipelined(httpGet("/metrics"), MetricsChannelInitializer.MAX_PIPELINED_REQUESTS));

            // The socket buffers fill and an answer waits in the server: the connection is stalled.
            await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> endpoint.pendingOutboundBytes() > 0);
            for (int i = 0; i < 5; i++) {
                // Each answer from the same single event loop comes after it has handled all it had read.
                HttpResponse<String> health = get(base(endpoint) + "/health", null);
                assertEquals(200, health.statusCode());
                long pending = endpoint.pendingOutboundBytes();
                assertTrue(pending <= 2L * scrapeBytes,
                        "pending " + pending + " bytes, more than one answer of " + scrapeBytes + " bytes");
            }
            // Still stalled, not closed: the one answer waits for the client to read.
            assertTrue(endpoint.pendingOutboundBytes() > 0);
        }
    }

    @Test
    void aClientThatPipelinesPastTheLimitAndNeverReadsIsClosedWhileOthersAreServed() throws Exception {
        PrometheusMeterRegistry registry = registryWithCounters(200);
        int scrapeBytes = registry.scrape().length();
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry);
                RawHttpConnection flood = RawHttpConnection.open(endpoint.address(), SMALL_RECEIVE_BUFFER)) {
            CompletableFuture<Void> sent = sendInBackground(flood, pipelined(httpGet("/metrics"), PIPELINED_FLOOD));
            // Done or failed: the server may close before it has taken every byte.
            sent.handle((done, failed) -> null).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> health = get(base(endpoint) + "/health", null);
                assertEquals(200, health.statusCode());
                long pending = endpoint.pendingOutboundBytes();
                assertTrue(pending <= 2L * scrapeBytes,
                        "pending " + pending + " bytes, more than one answer of " + scrapeBytes + " bytes");
            }

            int answers = 0;
            try {
                while (answers <= MetricsChannelInitializer.MAX_PIPELINED_REQUESTS) {
                    assertEquals(200, flood.readResponse().status());
                    answers++;
                }
            } catch (EOFException | SocketException closed) {
                // The server closed; a reset may cut off answers already sent, which only lowers the count.
            }
            assertTrue(answers <= MetricsChannelInitializer.MAX_PIPELINED_REQUESTS, answers + " answers");
        }
    }

    @Test
    void closesAConnectionStalledByAClientThatNeverReadsOnceIdle() throws Exception {
        MetricsEndpointConfig config = MetricsEndpointConfig.DEFAULTS.withIdleTimeout(Duration.ofSeconds(1));
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registryWithLargeScrape(), config);
                RawHttpConnection flood = RawHttpConnection.open(endpoint.address(), SMALL_RECEIVE_BUFFER)) {
            flood.send(pipelined(httpGet("/metrics"), MetricsChannelInitializer.MAX_PIPELINED_REQUESTS));

            await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> endpoint.pendingOutboundBytes() > 0);
            // Stalled, and nothing read or written since: the idle timeout ends it.
            await().atMost(WAIT).until(() -> endpoint.openConnections() == 0);
        }
    }

    @ParameterizedTest(name = "after a request: {0}")
    @ValueSource(booleans = {false, true})
    void closesAnIdleConnection(boolean afterARequest) throws Exception {
        MetricsEndpointConfig config = MetricsEndpointConfig.DEFAULTS.withIdleTimeout(SHORT_IDLE);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registryWithCounters(1), config);
                RawHttpConnection connection = RawHttpConnection.open(endpoint.address())) {
            if (afterARequest) {
                connection.send(httpGet("/health"));
                assertEquals(200, connection.readResponse().status());
            }
            connection.awaitClosedByServer();
        }
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("64 KiB header", "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(64 * 1024)
                        + "\r\n\r\n", 431),
                Arguments.of("8 KiB request line", httpGet("/metrics?" + "a".repeat(8 * 1024)), 400),
                Arguments.of("bad version", "GET /metrics HTTP/x.y\r\nHost: x\r\n\r\n", 400),
                Arguments.of("bad percent-encoding", httpGet("/metrics%zz"), 400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void answersARequestThatFailsToDecodeAndCloses(String name, String request, int status) throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registryWithCounters(1));
                RawHttpConnection connection = RawHttpConnection.open(endpoint.address())) {
            sendInBackground(connection, (request + httpGet("/health")).getBytes(StandardCharsets.ISO_8859_1));
            RawHttpConnection.Response response = connection.readResponse();
            assertEquals(status, response.status(), response.body());
            assertEquals("close", response.header("connection"));
            connection.awaitClosedByServer();
        }
    }

    @Test
    void aRegistryThatCannotRenderGives500OnMetricsAnd503OnHealth() throws Exception {
        PrometheusMeterRegistry registry = registryWithCounters(1);
        AtomicBoolean broken = new AtomicBoolean(true);
        registry.getPrometheusRegistry().register((Collector) () -> {
            if (broken.get()) {
                throw new IllegalStateException("collector boom");
            }
            return null;
        });
        // A throwing Gauge only renders NaN; a throwing collector really fails the scrape.
        assertThrows(IllegalStateException.class, registry::scrape);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry);
                RawHttpConnection connection = RawHttpConnection.open(endpoint.address())) {
            connection.send(httpGet("/metrics") + httpGet("/health"));
            RawHttpConnection.Response metrics = connection.readResponse();
            assertEquals(500, metrics.status());
            assertEquals("cannot render metrics\n", metrics.body());
            assertEquals("close", metrics.header("connection"));
            connection.awaitClosedByServer();

            HttpResponse<String> health = get(base(endpoint) + "/health", null);
            assertEquals(503, health.statusCode());
            assertTrue(health.body().contains("collector boom"), health.body());

            broken.set(false);
            HttpResponse<String> healthy = get(base(endpoint) + "/health", null);
            assertEquals(200, healthy.statusCode());
            assertEquals("ok\n", healthy.body());
            assertEquals(200, get(endpoint.metricsUrl(), null).statusCode());
        }
    }
}
