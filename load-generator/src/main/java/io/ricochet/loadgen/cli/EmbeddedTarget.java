package io.ricochet.loadgen.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.metrics.JvmProcessMetrics;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.transport.RicochetServer;
import java.net.URI;
import java.time.Duration;

/** An echo server in this process, on ephemeral loopback ports, with its metrics endpoint to scrape. */
final class EmbeddedTarget implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmProcessMetrics jvm = new JvmProcessMetrics();
    private final RicochetServer server;
    private final MetricsEndpoint metrics;

    EmbeddedTarget(LengthField lengthField, int maxFrame, int ioThreads, Duration idleTimeout) {
        jvm.bindTo(registry);
        server = RicochetServer.start(ServerConfig.builder()
                .host("127.0.0.1").ephemeralPorts().lengthField(lengthField).maxFrame(maxFrame)
                .ioThreads(ioThreads).idleTimeout(idleTimeout).transport(TransportKind.AUTO)
                .build(), new ReverseEchoHandler(), registry);
        metrics = MetricsEndpoint.start("127.0.0.1", 0, registry);
    }

    RicochetServer server() {
        return server;
    }

    URI metricsUri() {
        return URI.create(metrics.metricsUrl());
    }

    String describe() {
        return "no --target: started an embedded echo server, tcp " + server.tcpAddress().getHostString() + ":"
                + server.tcpAddress().getPort() + ", udp " + server.udpAddress().getHostString() + ":"
                + server.udpAddress().getPort() + " (" + server.transport().label() + "), metrics " + metrics.metricsUrl();
    }

    @Override
    public void close() {
        server.close();
        metrics.close();
        jvm.close();
    }
}
