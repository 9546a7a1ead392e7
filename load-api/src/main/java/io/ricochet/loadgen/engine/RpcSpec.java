package io.ricochet.loadgen.engine;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.notNegative;
import static io.ricochet.config.Checks.notNull;
import static io.ricochet.config.Checks.positive;

import io.ricochet.config.TransportKind;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.tls.Tls;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * How one RPC load runs, everything but what its calls are (its workload's).
 *
 * @param target          the RPC server or agent
 * @param clients         lanes, each with its own connection (or two, for a workload whose exchanges need a pair)
 * @param total           requests in all, split evenly over the lanes
 * @param warmup          requests run first on the same connections, split the same way, and not counted
 * @param inFlight        requests each lane keeps waiting at once (pipelined on its connection)
 * @param rate            total requests per second, open loop; 0 for closed loop
 * @param timeout         deadline of each call
 * @param seed            the run's seed, for the workload's random sources
 * @param worker          this process's worker index under a controller (0 alone)
 * @param firstConnection the run-wide index of this process's first lane
 * @param io              client I/O
 * @param ioThreads       client event loops (0: one per core)
 * @param tls             the client's TLS, or null for plaintext
 * @param noise           the client's Noise channel, or null
 */
public record RpcSpec(InetSocketAddress target, int clients, long total, long warmup, int inFlight, double rate,
        Duration timeout, long seed, int worker, long firstConnection, TransportKind io, int ioThreads, Tls tls,
        ClientNoiseConfig noise) {

    public RpcSpec {
        notNull("target", target);
        positive("clients", clients);
        positive("requests", total);
        notNegative("warmup", warmup);
        positive("inFlight", inFlight);
        notNegative("rate", rate);
        positive("timeout", timeout);
        inRange("worker", worker, 0, Integer.MAX_VALUE);
        inRange("firstConnection", firstConnection, 0, Long.MAX_VALUE / 2);
        inRange("ioThreads", ioThreads, 0, 1024);
        if (tls != null && noise != null) {
            throw new IllegalArgumentException("tls and noise: both (expected: one at most)");
        }
    }

    /** Units of work of lane {@code index}: an even split, the remainder to the first lanes. */
    public long shareOf(int index) {
        return split(total, index, clients);
    }

    /**
     * Warmup units of lane {@code index} in warmup round {@code round} of {@code rounds}: its share of the warmup,
     * split as {@link #shareOf} splits the measured ones, then split evenly over the rounds.
     */
    public long warmupShareOf(int index, int round, int rounds) {
        return split(split(warmup, index, clients), round, rounds);
    }

    private static long split(long units, int index, int parts) {
        return units / parts + (index < units % parts ? 1 : 0);
    }
}
