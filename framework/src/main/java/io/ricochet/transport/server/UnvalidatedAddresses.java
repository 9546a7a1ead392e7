package io.ricochet.transport.server;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What a QUIC listener has received from, and sent to, each client address it has not validated yet, so that no such
 * address is sent more than three times what it sent (RFC 9000, 8.1), whatever the QUIC stack counts.
 *
 * <p>An address enters with a datagram that opens a connection (an Initial). It leaves when a datagram from it is
 * addressed to a connection ID the server chose and sent there ({@link #serverChose}, {@link #echoed}): the RFC lets
 * that validate it when the ID has at least 64 bits of entropy, as random 20-byte IDs do, since only a client that
 * receives at the address can know it. It leaves too when a connection from it completes its handshake
 * ({@link #validated}), or {@code lifetime} after its last datagram: longer than any connection it limits can live
 * without hearing from it. At most {@code maxAddresses} are held; a datagram that would add one more is refused, so
 * that the table stays bounded and no address leaves it early, to be sent without limit. Every datagram from a held
 * address counts, whatever it carries, as the RFC asks.
 *
 * <p>An address with a connection whose handshake completed is validated until its last such connection closes
 * ({@link #released}); that map holds one entry per address with such a connection open, so it grows only with the
 * connections themselves. One instance serves one listener's socket and its connections, all on one event loop, so it
 * takes no locks. While no address is held, a datagram costs one emptiness check; after that, lookups, which allocate
 * nothing.
 *
 * <p>The tables are ordered ({@link #ADDRESS_ORDER}), not hashed: the senders are whoever forges a source address, and
 * an IPv4 {@link InetSocketAddress} hashes to its address plus its port, so a hash table could be filled with 65,536
 * addresses of one hash code, each lookup then a walk through all of them on the event loop. In a tree every lookup
 * is at most about 17 comparisons.
 */
final class UnvalidatedAddresses {
    /** RFC 9000, 8.1: before validation, at most three times the bytes received. */
    static final int AMPLIFICATION_FACTOR = 3;
    /** RFC 9000, 17.2: a connection ID has at most 20 bytes. */
    static final int MAX_CONNECTION_ID = 20;
    /**
     * A total order on resolved socket addresses, equal exactly when {@link InetSocketAddress#equals} is: by hash code
     * and port, which allocate nothing, then by address bytes where those tie.
     */
    static final Comparator<InetSocketAddress> ADDRESS_ORDER = UnvalidatedAddresses::compare;

    private final int maxAddresses;
    private final long lifetimeNanos;
    private final LongSupplier nanoClock;
    private final Map<InetSocketAddress, Budget> budgets = new TreeMap<>(ADDRESS_ORDER);
    /** Connections with a completed handshake, by address. */
    private final Map<InetSocketAddress, Integer> validated = new TreeMap<>(ADDRESS_ORDER);
    /** The budgets by their last datagram, oldest first, linked through the budgets: the head expires first. */
    private Budget oldest;
    private Budget newest;

    /** @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime}) */
    UnvalidatedAddresses(int maxAddresses, Duration lifetime, LongSupplier nanoClock) {
        if (maxAddresses <= 0) {
            throw new IllegalArgumentException("maxAddresses: " + maxAddresses + " (expected: > 0)");
        }
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("lifetime: " + lifetime + " (expected: > 0)");
        }
        this.maxAddresses = maxAddresses;
        this.lifetimeNanos = lifetime.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * Counts a datagram of {@code bytes} from {@code sender}, which {@code opensConnection} if it carries an Initial.
     * Returns false, counting nothing, if it would add an address to a full table: the caller drops it.
     */
    boolean received(InetSocketAddress sender, int bytes, boolean opensConnection) {
        if (budgets.isEmpty() && !opensConnection) {
            return true;
        }
        long now = nanoClock.getAsLong();
        expire(now);
        Budget budget = budgets.get(sender);
        if (budget != null) {
            budget.received += bytes;
            budget.lastReceived = now;
            unlink(budget);
            append(budget);
            return true;
        }
        if (!opensConnection || validated.containsKey(sender)) {
            return true;
        }
        if (budgets.size() >= maxAddresses) {
            return false;
        }
        budget = new Budget(sender, bytes, now);
        budgets.put(sender, budget);
        append(budget);
        return true;
    }

    /** Whether {@code bytes} more may be sent to {@code recipient}; if so they are counted as sent. */
    boolean trySend(InetSocketAddress recipient, int bytes) {
        if (budgets.isEmpty()) {
            return true;
        }
        Budget budget = budgets.get(recipient);
        if (budget == null) {
            return true;
        }
        if (budget.sent + bytes > AMPLIFICATION_FACTOR * budget.received) {
            return false;
        }
        budget.sent += bytes;
        return true;
    }

    /**
     * The server sends {@code recipient} a packet from the connection ID at {@code [offset, offset + length)} of
     * {@code datagram}, which it chose; if the address is held, the ID is kept for {@link #echoed}.
     */
    void serverChose(InetSocketAddress recipient, ByteBuf datagram, int offset, int length) {
        if (budgets.isEmpty() || length <= 0 || length > MAX_CONNECTION_ID) {
            return;
        }
        Budget budget = budgets.get(recipient);
        if (budget == null) {
            return;
        }
        if (budget.serverId == null) {
            budget.serverId = new byte[MAX_CONNECTION_ID];
        }
        datagram.getBytes(offset, budget.serverId, 0, length);
        budget.serverIdLength = length;
    }

    /**
     * A datagram from {@code sender} is addressed to the connection ID at {@code offset} of {@code datagram}, of
     * {@code length} bytes, or, when -1, as long as the one kept (a short header does not say). If that is the ID the
     * server chose and sent there, the client has received at the address: it is validated, and leaves the table.
     */
    void echoed(InetSocketAddress sender, ByteBuf datagram, int offset, int length) {
        if (budgets.isEmpty()) {
            return;
        }
        Budget budget = budgets.get(sender);
        if (budget == null || budget.serverIdLength == 0) {
            return;
        }
        int idLength = budget.serverIdLength;
        if ((length != -1 && length != idLength) || offset + idLength > datagram.writerIndex()) {
            return;
        }
        for (int i = 0; i < idLength; i++) {
            if (datagram.getByte(offset + i) != budget.serverId[i]) {
                return;
            }
        }
        forget(budget);
    }

    /** A connection from {@code address} completed its handshake: the address is validated until {@link #released}. */
    void validated(InetSocketAddress address) {
        validated.merge(address, 1, Integer::sum);
        Budget budget = budgets.get(address);
        if (budget != null) {
            forget(budget);
        }
    }

    /** A connection that {@link #validated} {@code address} closed. */
    void released(InetSocketAddress address) {
        validated.computeIfPresent(address, (a, connections) -> connections == 1 ? null : connections - 1);
    }

    /** Addresses held, unvalidated. */
    int size() {
        return budgets.size();
    }

    private void expire(long now) {
        while (oldest != null && now - oldest.lastReceived >= lifetimeNanos) {
            forget(oldest);
        }
    }

    private void forget(Budget budget) {
        unlink(budget);
        budgets.remove(budget.address);
    }

    private void append(Budget budget) {
        budget.previous = newest;
        budget.next = null;
        if (newest == null) {
            oldest = budget;
        } else {
            newest.next = budget;
        }
        newest = budget;
    }

    private void unlink(Budget budget) {
        if (budget.previous == null) {
            oldest = budget.next;
        } else {
            budget.previous.next = budget.next;
        }
        if (budget.next == null) {
            newest = budget.previous;
        } else {
            budget.next.previous = budget.previous;
        }
        budget.previous = null;
        budget.next = null;
    }

    private static int compare(InetSocketAddress a, InetSocketAddress b) {
        InetAddress x = a.getAddress();
        InetAddress y = b.getAddress();
        int order = Integer.compare(x.hashCode(), y.hashCode());
        if (order == 0) {
            order = Integer.compare(a.getPort(), b.getPort());
        }
        if (order == 0 && !x.equals(y)) {
            order = Arrays.compare(x.getAddress(), y.getAddress());
        }
        return order;
    }

    /** One address's bytes each way, the last connection ID the server chose there, and its place in expiry order. */
    private static final class Budget {
        final InetSocketAddress address;
        long received;
        long sent;
        long lastReceived;
        byte[] serverId;
        int serverIdLength;
        Budget previous;
        Budget next;

        Budget(InetSocketAddress address, long received, long lastReceived) {
            this.address = address;
            this.received = received;
            this.lastReceived = lastReceived;
        }
    }
}
