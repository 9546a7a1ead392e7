package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ricochet.transport.Protocol;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.awaitility.Awaitility;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import org.junit.jupiter.api.Test;

/** When a load gives up: only when nothing can be measured, never because one connection of several failed. */
class FutileLoadTest {

    private static HeldConnections load(Protocol protocol, int connections, int pipeline) {
        return load(LoadSpec.builder(new InetSocketAddress("127.0.0.1", 1)).protocol(protocol)
                .connections(connections).pipeline(pipeline).build());
    }

    private static HeldConnections load(LoadSpec spec) {
        return new HeldConnections(spec, PayloadWorkload.generated(1, 64, 64, Expectation.reversed()));
    }

    @Test
    void oneConnectionsWholePipelineTimingOutIsNotEveryConnectionFailing() {
        try (HeldConnections load = load(Protocol.TCP, 4, 16)) {
            load.stats.connectsEstablished.add(4);
            // One connection timed out with 16 in flight: 16 errors, more than the 4 connections, but one end.
            load.stats.errors.add(16);
            load.timedOut();
            assertNull(load.futile());
            load.timedOut();
            load.serverClosedOn(2, 0, 16, 64, 0);
            assertNull(load.futile());
            load.timedOut();
            assertEquals("no request was answered", load.futile());
        }
    }

    /** A server's close names what it left unanswered: one request, or the range of them, on its connection. */
    @Test
    void aServersCloseNamesTheRequestsItLeftUnanswered() {
        try (HeldConnections load = load(Protocol.TCP, 4, 16)) {
            assertEquals("request 0 of connection 3 was not answered: the server closed the connection (a server "
                    + "closes on a frame it will not take: is --target an echo port, with --length-field 2?)",
                    load.serverClosed(3, 0, 1, 64, 0));
            assertEquals("requests 5 to 8 of connection 3 were not answered: the server closed the connection, after "
                    + "5 good replies (did it shut down?)", load.serverClosed(3, 5, 4, 64, 5));
        }
    }

    @Test
    void aLateUdpReplyIsAnAnswer() {
        try (HeldConnections load = load(Protocol.UDP, 2, 1)) {
            load.stats.connectsEstablished.add(2);
            for (int i = 0; i < 6; i++) {
                load.timedOut();
            }
            assertEquals("no request was answered", load.futile(), "three unanswered per socket");
            load.stats.late.increment();
            assertNull(load.futile(), "the server answers, only later than --timeout");
        }
    }

    @Test
    void handshakesFailingWhileOthersSucceedIsNotEveryHandshakeFailing() {
        try (HeldConnections load = load(Protocol.TCP, 2, 1)) {
            load.stats.connectsEstablished.add(3);
            load.stats.handshakeFailures.add(2);
            load.stats.recordHandshakeTime(1_000_000);
            assertNull(load.futile());
        }
        try (HeldConnections load = load(Protocol.TCP, 2, 1)) {
            load.stats.connectsEstablished.add(2);
            load.stats.handshakeFailures.add(2);
            assertEquals("every handshake failed", load.futile());
        }
    }

    @Test
    void connectsFailingForTheTimeoutStopTheRunAndOneSuccessResetsTheClock() {
        try (HeldConnections load = load(LoadSpec.builder(new InetSocketAddress("127.0.0.1", 1))
                .connections(2).timeout(Duration.ofMillis(100)).build())) {
            load.connectFailed(new InetSocketAddress("127.0.0.1", 1), new ConnectException("Connection refused"));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> load.futile() != null);
            assertEquals("connects failed for --timeout 100ms with none succeeding", load.futile());
            load.connected(System.nanoTime());
            assertNull(load.futile());
        }
    }

    @Test
    void aThousandConnectsFailingInARowStopTheRunBeforeTheTimeoutAndOneSuccessResetsTheCount() {
        InetSocketAddress nowhere = new InetSocketAddress("127.0.0.1", 1);
        try (HeldConnections load = load(LoadSpec.builder(nowhere).connections(5_000)
                .timeout(Duration.ofHours(1)).build())) {
            for (int i = 1; i < LoadBase.CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP; i++) {
                load.connectFailed(nowhere, new ConnectException("Connection refused"));
            }
            assertNull(load.futile(), "one short");
            load.connected(System.nanoTime());
            load.connectFailed(nowhere, new ConnectException("Connection refused"));
            assertNull(load.futile(), "a success between them starts the count again");
            for (int i = 1; i < LoadBase.CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP; i++) {
                load.connectFailed(nowhere, new ConnectException("Connection refused"));
            }
            assertEquals("1000 connects in a row failed", load.futile());
            load.stats.openConnections.incrementAndGet();
            assertNull(load.futile(), "with a connection open, one dead target of several does not end the run");
        }
    }
}
