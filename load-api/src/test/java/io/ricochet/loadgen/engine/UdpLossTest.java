package io.ricochet.loadgen.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.Payload;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.payload.Template;
import io.ricochet.testing.LossyRelay;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.server.RicochetServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * udp-stream through a path that drops 5% each way and reorders (up to 2 ms of delay), and one that also duplicates:
 * what the stream counts as lost is exactly what the path dropped, and what it counts as received exactly what the
 * path delivered, so its loss figure is the network's, not its own.
 */
@Timeout(60)
class UdpLossTest {
    private static final long DATAGRAMS = 2_000;

    @Test
    void lossIsExactlyWhatThePathDropped() throws Exception {
        Outcome o = run(new LossyRelay.Impairment(0.05, 0, Duration.ofMillis(2)));
        assertTrue(o.relay.toServer().dropped() > 0 && o.relay.toClient().dropped() > 0, o.toString());
        assertEquals(o.relay.toServer().dropped() + o.relay.toClient().dropped(), o.sent - o.received, o.toString());
    }

    @Test
    void duplicatesAreCountedAsThePathDeliveredThem() throws Exception {
        Outcome o = run(new LossyRelay.Impairment(0.05, 0.05, Duration.ofMillis(2)));
        assertTrue(o.relay.toClient().delivered() > o.relay.toClient().received() - o.relay.toClient().dropped(),
                "the path duplicated replies: " + o);
    }

    private record Outcome(LossyRelay relay, long sent, long received) {
    }

    /**
     * Streams {@link #DATAGRAMS} through the relay; once the relay has passed everything on, the stream must have
     * received exactly what the relay delivered to it.
     */
    private static Outcome run(LossyRelay.Impairment impairment) throws Exception {
        ServerConfig config = TestServers.config(TransportKind.NIO).tcpPort(ServerConfig.DISABLED).build();
        try (RicochetServer server = TestServers.echo(config, new SimpleMeterRegistry());
                LossyRelay relay = new LossyRelay(server.udpAddress(), impairment, 42);
                DatagramStream stream = new DatagramStream(LoadSpec.builder(relay.address()).protocol(Protocol.UDP)
                        .rate(2_000).transport(TransportKind.NIO).build(),
                        PayloadWorkload.of(Template.literalOf(Payload.body(7, 32)), Expectation.reversed()))) {
            stream.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> stream.stats.sent.sum() >= DATAGRAMS);
            stream.stopSending();
            // Read afresh each time: a batch the sender had begun may still go out after the stop.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertTrue(
                    relay.toServer().received() == stream.stats.sent.sum()
                    && relay.toClient().received() == relay.toServer().delivered() && relay.idle(),
                    "the path settles: sent " + stream.stats.sent.sum() + ", " + relay));
            long sent = stream.stats.sent.sum();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(relay.toClient().delivered(),
                    stream.stats.ok.sum(), "the stream received what the path delivered"));
            assertEquals(0, stream.stats.bad.sum());
            return new Outcome(relay, sent, stream.stats.ok.sum());
        }
    }
}
