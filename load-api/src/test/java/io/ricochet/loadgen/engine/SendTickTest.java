package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.transport.server.RicochetServer;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Held connections that send rarely wake their loop when a send is due, not every 100 µs: a dozen such processes on
 * two cores spent the CPU on ticks and answered in seconds at 200,000 connections.
 */
@Timeout(60)
class SendTickTest {

    @Test
    void rarelySendingConnectionsTickAboutAsOftenAsTheySend() throws Exception {
        try (RicochetServer server = RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1").tcpPort(0)
                .transport(TransportKind.NIO).ioThreads(1).build()).handler(new ReverseEchoHandler())
                .meterRegistry(new SimpleMeterRegistry()).build().startAndAwait();
                HeldConnections load = new HeldConnections(LoadSpec.builder(server.tcpAddress()).connections(20)
                        .perConnectionRate(5).timeout(Duration.ofSeconds(10)).build(), PayloadWorkload.generated(1, 64, 64, Expectation.reversed()))) {
            load.start();
            // 100 requests at 100/s in all: about a second, which ticking every 100 µs would fill with 10,000 ticks.
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.counts().ok() >= 100);
            long ticks = load.sendTicks();
            assertTrue(ticks <= 1_000, ticks + " ticks for " + load.counts().sent() + " sends");
            load.stopSending();
            load.drain(Duration.ofSeconds(5));
            assertEquals(0, load.counts().bad());
        }
    }
}
