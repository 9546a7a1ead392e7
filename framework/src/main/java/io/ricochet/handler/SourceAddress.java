package io.ricochet.handler;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Who a peer counts as, for the bounds kept per source: its IPv4 address, or its IPv6 /64 (one host commonly holds
 * a whole /64, so single IPv6 addresses would be a bound it steps around), or the address itself for other kinds.
 *
 * <pre>{@code
 * Object source = SourceAddress.of(channel.remoteAddress());
 * }</pre>
 */
public final class SourceAddress {
    private SourceAddress() {
    }

    /** A key equal for every peer of one source, whatever its port. */
    public static Object of(SocketAddress remote) {
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            InetAddress address = inet.getAddress();
            if (address instanceof Inet6Address) {
                byte[] bytes = address.getAddress();
                long prefix = 0;
                for (int i = 0; i < 8; i++) {
                    prefix = prefix << 8 | (bytes[i] & 0xff);
                }
                return new Ipv6Prefix(prefix);
            }
            return address;
        }
        return remote;
    }

    /** An IPv6 /64: its first 64 bits. */
    record Ipv6Prefix(long bits) {
    }
}
