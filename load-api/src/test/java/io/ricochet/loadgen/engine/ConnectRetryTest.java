package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.transport.server.RicochetServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A server that starts after the load: refused connects are retried, and every connection opens once it listens. */
@Timeout(60)
class ConnectRetryTest {

    @Test
    void connectsRefusedBeforeTheServerStartsAreRetriedUntilItListens() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        LoadSpec spec = LoadSpec.builder(new InetSocketAddress("127.0.0.1", port)).connections(4)
                .timeout(Duration.ofSeconds(30)).build();
        try (HeldConnections load = new HeldConnections(spec, PayloadWorkload.generated(1, 64, 64, Expectation.reversed()))) {
            load.start();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.stats.connectFailures.sum() >= 8);
            assertEquals(0, load.openConnections(), "nothing listens yet");
            try (RicochetServer server = RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1")
                    .tcpPort(port).transport(TransportKind.NIO).ioThreads(1).build()).handler(new ReverseEchoHandler())
                    .meterRegistry(new SimpleMeterRegistry()).build().startAndAwait()) {
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.openConnections() == 4
                        && load.counts().ok() > 0);
                assertNull(load.futile(), "the run goes on");
                load.stopSending();
                load.drain(Duration.ofSeconds(5));
            }
        }
    }
}
