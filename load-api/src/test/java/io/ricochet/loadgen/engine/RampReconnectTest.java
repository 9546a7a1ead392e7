package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection the server drops while the ramp is still opening others is opened again: at scale, timeouts during a
 * slow ramp closed thousands that were never replaced, and a 300,000-connection run stalled at 231,578.
 */
@Timeout(60)
class RampReconnectTest {

    @Test
    void aConnectionDroppedDuringTheRampIsOpenedAgain() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        if (accepted.incrementAndGet() == 1) {
                            s.close(); // the first one is dropped at once, long before the ramp's second connect
                        } else {
                            held.add(s);
                        }
                    }
                } catch (IOException closed) {
                    // The test is over.
                }
            });
            acceptor.start();
            LoadSpec spec = LoadSpec.builder(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()))
                    .connections(2).connectRate(0.5).perConnectionRate(0.01).timeout(Duration.ofSeconds(30)).build();
            try (HeldConnections load = new HeldConnections(spec, PayloadWorkload.generated(1, 64, 64, Expectation.reversed()))) {
                load.start();
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.openConnections() == 2);
                assertEquals(3, accepted.get(), "the dropped connection, its replacement and the ramp's second");
                load.stopSending();
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
