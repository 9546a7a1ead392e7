package io.ricochet.testing;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.transport.RicochetServer;

/** Echo servers on ephemeral loopback ports for socket tests. */
public final class TestServers {
    private TestServers() {
    }

    public static ServerConfig.Builder config(TransportKind transport) {
        return ServerConfig.builder().host("127.0.0.1").ephemeralPorts().ioThreads(1).transport(transport);
    }

    public static RicochetServer echo(ServerConfig config, MeterRegistry registry) {
        return RicochetServer.start(config, new ReverseEchoHandler(), registry);
    }
}
