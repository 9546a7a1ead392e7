package io.ricochet.testing;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.session.FrameHandler;

/** Echo servers on ephemeral loopback ports for socket tests. */
public final class TestServers {
    private TestServers() {
    }

    public static ServerConfig.Builder config(TransportKind transport) {
        return ServerConfig.builder().host("127.0.0.1").ephemeralPorts().ioThreads(1).transport(transport);
    }

    /** A started reverse-echo server counting into {@code registry}. */
    public static RicochetServer echo(ServerConfig config, MeterRegistry registry) {
        return start(config, new ReverseEcho(), registry);
    }

    /** A started server of {@code handler} counting into {@code registry}. */
    public static RicochetServer start(ServerConfig config, FrameHandler handler, MeterRegistry registry) {
        return start(config, handler, registry, PipelineCustomizer.NONE);
    }

    /** As above, its pipelines customized by {@code customizer}: one that keeps the stages apart, say. */
    public static RicochetServer start(ServerConfig config, FrameHandler handler, MeterRegistry registry,
            PipelineCustomizer customizer) {
        return RicochetServer.builder().config(config).handler(handler).meterRegistry(registry).pipeline(customizer)
                .build().startAndAwait();
    }

    /**
     * A customizer that adds nothing but does not declare so: the server then runs the idle timeout and backpressure
     * as handlers of their own, as for any customizer that may add handlers between them.
     */
    public static PipelineCustomizer separateStages() {
        return PipelineCustomizer.keepingFrameRuns(channel -> { });
    }
}
