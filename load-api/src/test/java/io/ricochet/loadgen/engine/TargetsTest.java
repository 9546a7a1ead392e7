package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {

    @Test
    void listsAndPortRangesExpandInOrderAndFoldBackWhenWritten() {
        Targets targets = Targets.parse("127.0.0.1:7000-7002,10.0.0.5:7000,[::1]:9000");
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 7000), new InetSocketAddress("127.0.0.1", 7001),
                new InetSocketAddress("127.0.0.1", 7002), new InetSocketAddress("10.0.0.5", 7000),
                new InetSocketAddress("::1", 9000)), targets.addresses());
        assertEquals("127.0.0.1:7000-7002,10.0.0.5:7000,[0:0:0:0:0:0:0:1]:9000", targets.toString());
    }

    @Test
    void connectionsAreDealtRoundRobin() {
        Targets targets = Targets.parse("h:1-3");
        assertEquals(1, targets.forConnection(0).getPort());
        assertEquals(2, targets.forConnection(1).getPort());
        assertEquals(3, targets.forConnection(2).getPort());
        assertEquals(1, targets.forConnection(3).getPort());
    }

    @Test
    void aBadItemIsNamedWithWhatWouldDo() {
        assertEquals("target: nohost (expected: HOST:PORT or HOST:PORT-PORT)",
                assertThrows(IllegalArgumentException.class, () -> Targets.parse("h:1,nohost")).getMessage());
        assertEquals("target: h:70000 (expected: a port 1..65535)",
                assertThrows(IllegalArgumentException.class, () -> Targets.parse("h:70000")).getMessage());
        assertEquals("target: h:9-7 (expected: a port range low-high)",
                assertThrows(IllegalArgumentException.class, () -> Targets.parse("h:9-7")).getMessage());
        assertEquals("target: h: (expected: a port 1..65535)",
                assertThrows(IllegalArgumentException.class, () -> Targets.parse("h:")).getMessage());
    }
}
