package io.ricochet.loadgen.plan;

/**
 * What one held connection costs, and what each process costs before any: resident memory of the generator and the
 * server, and the kernel's (both ends' sockets on one machine).
 */
public record ConnectionCosts(long clientBytes, long serverBytes, long kernelBytes, long workerBaseBytes,
        long serverBaseBytes) {
    /**
     * Measured by {@code bench/held-connections.sh 100000} on the 2-core, 24 GiB machine (docs/perf/history.md,
     * "A hundred thousand held connections"): RSS growth per connection while holding (4,014 B and 2,998 B), slab
     * growth for the kernel (8,382 B), and an idle worker's and server's RSS (91 and 85 MiB).
     */
    public static final ConnectionCosts MEASURED = new ConnectionCosts(4_000, 3_000, 8_400, 91L << 20, 85L << 20);

    /**
     * A QUIC connection, measured with {@code massive --transport quic} (docs/perf/history.md, "QUIC connections held
     * past the open-file limit"): RSS growth per held connection, generator 40 KB and server 42 KB at 10,000 (quiche's
     * state and TLS), and nothing in the kernel, since connections share their sockets.
     */
    public static final ConnectionCosts QUIC = new ConnectionCosts(40_000, 42_000, 0, 91L << 20, 85L << 20);

    /** The costs of a connection of {@code demand}'s kind. */
    public static ConnectionCosts of(Demand demand) {
        return demand.clientSharesSockets() ? QUIC : MEASURED;
    }

    /** These costs with the generator's share of a connection as a workload declares it, its own state included. */
    public ConnectionCosts withClientBytes(long declared) {
        return new ConnectionCosts(declared, serverBytes, kernelBytes, workerBaseBytes, serverBaseBytes);
    }
}
