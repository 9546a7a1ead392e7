package io.ricochet.loadgen.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.metrics.JvmProcessMetrics;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcService;
import io.ricochet.tls.Tls;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.server.ServerBuilder;
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
    /** The RPC listener, or null without one. */
    private final Listener rpc;
    private final MetricsEndpoint metrics;
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
                .host("127.0.0.1").lengthField(lengthField).maxFrame(maxFrame)
                .ioThreads(ioThreads).idleTimeout(idleTimeout).transport(TransportKind.AUTO)
                .build();
        // As the echo server runs them: one server, its listeners on one group of event loops.
        Listener tcp = Listener.tcp(0);
        tcp = tls != null ? tcp.tls(tls) : noise != null ? tcp.noise(noise) : tcp;
        ServerBuilder echo = RicochetServer.builder().config(config).handler(new ReverseEchoHandler())
                .meterRegistry(registry).name("echo").listen(tcp).listen(Listener.udp(0));
        if (quic != null) {
            echo.listen(Listener.quic(0, quic));
        }
        if (withRpc) {
            RpcDispatcher methods = new RpcDispatcher();
            new BenchMethods().registerOn(methods);
            Listener listener = RpcService.builder().dispatcher(methods).agent(true).build().listener(0)
                    .idleTimeout(Duration.ofMinutes(10)).name("rpc");
            rpc = tls != null ? listener.tls(tls) : noise != null ? listener.noise(noise) : listener;
            echo.listen(rpc);
        } else {
            rpc = null;
        }
        server = echo.build().startAndAwait();
        metrics = MetricsEndpoint.start("127.0.0.1", 0, registry);
    }

    /** The RPC port's address, or null if not started with one. */
    java.net.InetSocketAddress rpcAddress() {
        return rpc == null ? null : server.address(rpc);
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
                + (rpc == null ? "" : ", rpc " + rpcAddress().getHostString() + ":" + rpcAddress().getPort()) + " (" + server.transport().label() + "), metrics " + metrics.metricsUrl()
                + "; it shares this JVM, so srv_cpu and srv_rss are the client's and the server's together";
    }

    @Override
    public void close() {
        server.close();
        metrics.close();
        jvm.close();
    }
}
