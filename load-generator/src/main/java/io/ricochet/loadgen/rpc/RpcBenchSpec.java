package io.ricochet.loadgen.rpc;

import io.ricochet.config.TransportKind;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.tls.Tls;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What an RPC benchmark runs.
 *
 * @param target      the RPC server or agent
 * @param clients     connections, each its own client (for {@code register}: clients per role, so pairs)
 * @param total       calls ({@code rpc}) or cycles ({@code register}), split evenly over the clients
 * @param warmup      calls or cycles run first on the same clients, split the same way, and not counted
 * @param inFlight    calls each client keeps waiting at once (pipelined on its connection)
 * @param bodySize    bytes of the body each call carries
 * @param timeout     deadline of each call
 * @param seed        seed of the bodies
 * @param io          client I/O
 * @param ioThreads   client event loops
 * @param tls         the client's TLS, or null for plaintext
 * @param noise       the client's Noise channel, or null
 */
public record RpcBenchSpec(InetSocketAddress target, int clients, long total, long warmup, int inFlight, int bodySize,
        Duration timeout, long seed, TransportKind io, int ioThreads, Tls tls, ClientNoiseConfig noise) {

    /** Units of work of client {@code index}: an even split, the remainder to the first clients. */
    public long shareOf(int index) {
        return split(total, index, clients);
    }

    /**
     * Warmup units of client {@code index} in warmup round {@code round} of {@code rounds}: its share of the warmup, split
     * as {@link #shareOf} splits the measured ones, then split evenly over the rounds.
     */
    public long warmupShareOf(int index, int round, int rounds) {
        return split(split(warmup, index, clients), round, rounds);
    }

    private static long split(long units, int index, int parts) {
        return units / parts + (index < units % parts ? 1 : 0);
    }
}
