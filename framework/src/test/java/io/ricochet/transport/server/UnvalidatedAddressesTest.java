package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UnvalidatedAddressesTest {
    private static final Duration LIFETIME = Duration.ofSeconds(35);
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 50_000);
    private static final InetSocketAddress OTHER = new InetSocketAddress("127.0.0.1", 50_001);
    private static final byte[] ID = "a connection ID, 20 ".getBytes(StandardCharsets.US_ASCII);

    private final AtomicLong now = new AtomicLong(1_000);

    private UnvalidatedAddresses addresses(int max) {
        return new UnvalidatedAddresses(max, LIFETIME, now::get);
    }

    @Test
    void anAddressIsSentAtMostThreeTimesAllItSent() {
        UnvalidatedAddresses addresses = addresses(8);
        assertTrue(addresses.received(CLIENT, 1200, true));
        assertTrue(addresses.trySend(CLIENT, 1200));
        assertTrue(addresses.trySend(CLIENT, 2400));
        assertFalse(addresses.trySend(CLIENT, 1), "3,600 sent for 1,200 received");
        // Any datagram from it counts, Initial or not; and a datagram refused is not counted as sent.
        assertTrue(addresses.received(CLIENT, 100, false));
        assertFalse(addresses.trySend(CLIENT, 301));
        assertTrue(addresses.trySend(CLIENT, 300));
        assertTrue(addresses.trySend(OTHER, 100_000), "an address never seen opening a connection is not held");
    }

    @Test
    void onlyADatagramThatOpensAConnectionAddsAnAddress() {
        UnvalidatedAddresses addresses = addresses(8);
        assertTrue(addresses.received(CLIENT, 1200, false));
        assertEquals(0, addresses.size());
        assertTrue(addresses.trySend(CLIENT, 10_000));
    }

    @Test
    void aValidatedAddressIsNotHeldUntilItsLastConnectionCloses() {
        UnvalidatedAddresses addresses = addresses(8);
        addresses.received(CLIENT, 1200, true);
        addresses.validated(CLIENT);
        assertEquals(0, addresses.size());
        assertTrue(addresses.trySend(CLIENT, 100_000));
        // A second connection from the validated address, as from a client's shared socket.
        addresses.received(CLIENT, 1200, true);
        addresses.validated(CLIENT);
        assertEquals(0, addresses.size());
        addresses.released(CLIENT);
        addresses.received(CLIENT, 1200, true);
        assertEquals(0, addresses.size(), "one of its connections is still open");
        addresses.released(CLIENT);
        addresses.received(CLIENT, 1200, true);
        assertEquals(1, addresses.size(), "no connection validates it any more");
        assertFalse(addresses.trySend(CLIENT, 3601));
    }

    /** RFC 9000, 8.1: a client using a connection ID the server chose (random, 20 bytes) receives at its address. */
    @Test
    void anAddressUsingTheConnectionIdTheServerSentItIsValidated() {
        UnvalidatedAddresses addresses = addresses(8);
        addresses.received(CLIENT, 1200, true);
        ByteBuf id = Unpooled.buffer().writeZero(3).writeBytes(ID);
        addresses.serverChose(OTHER, id, 3, ID.length);
        addresses.echoed(CLIENT, id, 3, ID.length);
        assertEquals(1, addresses.size(), "sent elsewhere");
        addresses.serverChose(CLIENT, id, 3, ID.length);
        ByteBuf other = Unpooled.buffer().writeBytes(ID).setByte(19, 0);
        addresses.echoed(CLIENT, other, 0, ID.length);
        addresses.echoed(CLIENT, id, 3, ID.length - 1);
        addresses.echoed(CLIENT, id.copy(0, 3 + ID.length - 1), 3, -1);
        assertEquals(1, addresses.size(), "another ID, another length, or cut short");
        addresses.echoed(CLIENT, Unpooled.wrappedBuffer(new byte[] {0x40}, ID), 1, -1);
        assertEquals(0, addresses.size(), "a short header's ID is as long as the one chosen");
        assertTrue(addresses.trySend(CLIENT, 100_000));
    }

    @Test
    void anAddressIsHeldForItsLifetimeAfterItsLastDatagram() {
        UnvalidatedAddresses addresses = addresses(8);
        addresses.received(CLIENT, 1200, true);
        now.addAndGet(LIFETIME.toNanos() - 1);
        addresses.received(CLIENT, 10, false);
        now.addAndGet(LIFETIME.toNanos() - 1);
        addresses.received(OTHER, 10, false);
        assertEquals(1, addresses.size(), "its last datagram renewed it");
        assertFalse(addresses.trySend(CLIENT, 3631));
        now.incrementAndGet();
        addresses.received(OTHER, 10, false);
        assertEquals(0, addresses.size());
    }

    @Test
    void aFullTableRefusesNewAddressesButCountsHeldOnes() {
        UnvalidatedAddresses addresses = addresses(2);
        assertTrue(addresses.received(CLIENT, 1200, true));
        now.addAndGet(1_000);
        assertTrue(addresses.received(OTHER, 1200, true));
        InetSocketAddress third = new InetSocketAddress("127.0.0.2", 50_000);
        assertFalse(addresses.received(third, 1200, true));
        assertTrue(addresses.trySend(third, 100_000), "refused, so never held");
        now.addAndGet(1_000);
        assertTrue(addresses.received(CLIENT, 1200, true), "held already");
        assertFalse(addresses.trySend(CLIENT, 7201));
        assertTrue(addresses.received(third, 1200, false), "not opening a connection: passed, not held");
        assertEquals(2, addresses.size());
        // The oldest by its last datagram (OTHER: CLIENT's second one renewed it) expires, and makes room.
        now.addAndGet(LIFETIME.toNanos() - 1_000);
        assertTrue(addresses.received(third, 1200, true));
        assertEquals(2, addresses.size());
        assertTrue(addresses.trySend(OTHER, 100_000), "expired");
    }

    @Test
    void argumentsAreChecked() {
        IllegalArgumentException max = assertThrows(IllegalArgumentException.class,
                () -> new UnvalidatedAddresses(0, LIFETIME, now::get));
        assertEquals("maxAddresses: 0 (expected: > 0)", max.getMessage());
        IllegalArgumentException lifetime = assertThrows(IllegalArgumentException.class,
                () -> new UnvalidatedAddresses(1, Duration.ZERO, now::get));
        assertEquals("lifetime: PT0S (expected: > 0)", lifetime.getMessage());
    }

    /**
     * An IPv4 socket address hashes to its address plus its port, so a forger can pick thousands of one hash code;
     * the tables order addresses instead, and still keep each one apart.
     */
    @Test
    void addressesOfOneHashCodeAreKeptApart() throws Exception {
        UnvalidatedAddresses addresses = addresses(1_000);
        int base = 0x7f000001 + 1_000;
        InetSocketAddress[] forged = new InetSocketAddress[1_000];
        for (int i = 0; i < forged.length; i++) {
            int address = base - i;
            byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
            forged[i] = new InetSocketAddress(InetAddress.getByAddress(bytes), 40_000 + i);
            assertEquals(forged[0].hashCode(), forged[i].hashCode(), "the same hash code");
            assertTrue(addresses.received(forged[i], 100 + i, true));
        }
        assertEquals(1_000, addresses.size());
        for (int i = 0; i < forged.length; i++) {
            assertTrue(addresses.trySend(forged[i], 3 * (100 + i)), "its own budget");
            assertFalse(addresses.trySend(forged[i], 1), "and no more");
        }
        InetSocketAddress v6 = new InetSocketAddress("::1", 40_000);
        assertTrue(addresses.trySend(v6, 100_000), "not held");
    }

    @Test
    void theAddressOrderIsConsistentWithEquals() throws Exception {
        InetSocketAddress a = new InetSocketAddress("127.0.0.1", 1);
        InetSocketAddress sameAsA = new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 1);
        InetSocketAddress b = new InetSocketAddress("127.0.0.2", 0);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(0, UnvalidatedAddresses.ADDRESS_ORDER.compare(a, sameAsA));
        int ab = UnvalidatedAddresses.ADDRESS_ORDER.compare(a, b);
        assertTrue(ab != 0);
        assertEquals(-Integer.signum(ab), Integer.signum(UnvalidatedAddresses.ADDRESS_ORDER.compare(b, a)));
    }
}
