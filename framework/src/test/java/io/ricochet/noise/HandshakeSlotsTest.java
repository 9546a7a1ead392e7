package io.ricochet.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.handler.SourceAddress;
import io.ricochet.metrics.HandshakeShedReason;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class HandshakeSlotsTest {
    @Test
    void aSourceIsBoundAloneAndAllTogether() throws Exception {
        HandshakeSlots slots = new HandshakeSlots(3, 2);
        Object a = source("10.0.0.1");
        Object b = source("10.0.0.2");
        assertNull(slots.acquire(a));
        assertNull(slots.acquire(a));
        assertEquals(HandshakeShedReason.MAX_HANDSHAKES_PER_ADDRESS, slots.acquire(a));
        assertNull(slots.acquire(b));
        assertEquals(HandshakeShedReason.MAX_HANDSHAKES, slots.acquire(b));
        assertEquals(3, slots.held());
        slots.release(a);
        assertNull(slots.acquire(b));
        slots.release(a);
        slots.release(b);
        slots.release(b);
        assertEquals(0, slots.held());
        assertEquals(0, slots.sources(), "a source without places keeps no entry");
        assertThrows(IllegalStateException.class, () -> slots.release(a));
    }

    private static Object source(String address) throws Exception {
        return SourceAddress.of(new InetSocketAddress(InetAddress.getByName(address), 40_000));
    }
}
