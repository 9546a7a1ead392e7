package io.ricochet.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class SourceAddressTest {
    /** One host commonly holds a /64: its addresses are one source. IPv4 addresses are each their own. */
    @Test
    void anIpv6SourceIsItsSlash64AndAnIpv4SourceItsAddress() throws Exception {
        assertEquals(source("2001:db8:1:2::1"), source("2001:db8:1:2:ffff::9"));
        assertNotEquals(source("2001:db8:1:2::1"), source("2001:db8:1:3::1"));
        assertNotEquals(source("192.0.2.1"), source("192.0.2.2"));
        assertEquals(source("192.0.2.1"), SourceAddress.of(new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 9)));
    }

    private static Object source(String address) throws Exception {
        return SourceAddress.of(new InetSocketAddress(InetAddress.getByName(address), 40_000));
    }
}
