package io.ricochet.transport.session;

/**
 * How a lingering close is timed. One value is shared by all of a listener's (or a client's) connections, so an idle
 * connection holds nothing of its close until the close begins.
 *
 * <pre>{@code
 * ChannelHandler session = Sessions.tcpSession(handler, stats, width, decoder,
 *         new LingerTimeouts(Duration.ofSeconds(2).toNanos(), 0));
 * }</pre>
 *
 * @param lingerNanos   how long a closing connection waits, after its FIN, for the peer to send anything or end its
 *                      stream
 * @param maxCloseNanos how long a close may take in all, flush included, before it is forced; 0 for no bound of its
 *                      own (a server's idle timeout, which keeps running, bounds it)
 */
public record LingerTimeouts(long lingerNanos, long maxCloseNanos) {
    public LingerTimeouts {
        if (lingerNanos <= 0) {
            throw new IllegalArgumentException("lingerNanos: " + lingerNanos + " (expected: > 0)");
        }
        if (maxCloseNanos < 0) {
            throw new IllegalArgumentException("maxCloseNanos: " + maxCloseNanos + " (expected: >= 0)");
        }
    }
}
