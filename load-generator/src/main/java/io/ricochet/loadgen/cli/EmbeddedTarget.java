package io.ricochet.loadgen.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.metrics.JvmProcessMetrics;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcServer;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.transport.EventLoops;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.RicochetServer;
import java.net.URI;
import java.time.Duration;

/**
 * An echo server in this process, on ephemeral loopback ports, with its metrics endpoint to scrape;
 * for the RPC commands also the echo server's RPC port (benchmark methods and agent).
 */
final class EmbeddedTarget implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmProcessMetrics jvm = new JvmProcessMetrics();
    private final RicochetServer server;
    private final RpcServer rpc;
    private final MetricsEndpoint metrics;
    private final EventLoops loops;
    private final String security;

    /**
     * {@code tls}: the server side of TLS for the TCP and RPC listeners, or null; {@code noise}: of the Noise channel
     * for them, or null; {@code quic}: a QUIC listener's TLS, or null for none.
     */
    EmbeddedTarget(LengthField lengthField, int maxFrame, int ioThreads, Duration idleTimeout, boolean withRpc, Tls tls,
            ServerNoiseConfig noise, QuicSslContext quic) {
        this.security = tls != null ? " over tls " : noise != null ? " over noise " : " ";
        jvm.bindTo(registry);
        ServerConfig config = ServerConfig.builder()
                .host("127.0.0.1").ephemeralPorts().lengthField(lengthField).maxFrame(maxFrame)
                .ioThreads(ioThreads).idleTimeout(idleTimeout).transport(TransportKind.AUTO)
                .quicPort(quic == null ? ServerConfig.DISABLED : 0)
                .build();
        // As the echo server runs them: its listeners on one group of event loops.
        loops = EventLoops.create(TransportKind.AUTO, ioThreads, "embedded-io");
        RicochetServer.Builder echo = RicochetServer.builder().config(config).handler(new ReverseEchoHandler())
                .eventLoops(loops, false).meterRegistry(registry).name("echo");
        if (tls != null) {
            echo.tls(tls);
        } else if (noise != null) {
            echo.noise(noise);
        }
        if (quic != null) {
            echo.quic(quic);
        }
        server = echo.build().startAndAwait();
        if (withRpc) {
            RpcDispatcher methods = new RpcDispatcher();
            new BenchMethods().registerOn(methods);
            RpcServer.Builder b = RpcServer.builder().config(config.toBuilder().idleTimeout(Duration.ofMinutes(10)).build())
                    .dispatcher(methods).agent(true).eventLoops(loops, false).meterRegistry(registry).name("rpc");
            if (tls != null) {
                b.tls(tls);
            } else if (noise != null) {
                b.noise(noise);
            }
            rpc = b.build().startAndAwait();
        } else {
            rpc = null;
        }
        metrics = MetricsEndpoint.start("127.0.0.1", 0, registry);
    }

    /** The RPC port's address, or null if not started with one. */
    java.net.InetSocketAddress rpcAddress() {
        return rpc == null ? null : rpc.address();
    }

    /** The QUIC listener's address, or null without one. */
    java.net.InetSocketAddress quicAddress() {
        return server.quicAddress();
    }

    RicochetServer server() {
        return server;
    }

    URI metricsUri() {
        return URI.create(metrics.metricsUrl());
    }

    String describe() {
        return "no --target: started an embedded echo server, tcp" + security + server.tcpAddress().getHostString() + ":"
                + server.tcpAddress().getPort() + ", udp " + server.udpAddress().getHostString() + ":"
                + server.udpAddress().getPort() + (server.quicAddress() == null ? "" : ", quic "
                + server.quicAddress().getHostString() + ":" + server.quicAddress().getPort())
                + (rpc == null ? "" : ", rpc " + rpc.address().getHostString() + ":"
                + rpc.address().getPort()) + " (" + server.transport().label() + "), metrics " + metrics.metricsUrl()
                + "; it shares this JVM, so srv_cpu and srv_rss are the client's and the server's together";
    }

    @Override
    public void close() {
        server.close();
        if (rpc != null) {
            rpc.close();
        }
        metrics.close();
        loops.close();
        jvm.close();
    }
}
