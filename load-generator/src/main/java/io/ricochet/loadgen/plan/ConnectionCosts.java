package io.ricochet.loadgen.plan;

/**
 * What one held connection costs, and what each process costs before any: resident memory of the generator and the
 * server, and the kernel's (both ends' sockets on one machine).
 */
public record ConnectionCosts(long clientBytes, long serverBytes, long kernelBytes, long workerBaseBytes,
        long serverBaseBytes) {
    /**
     * Measured by {@code bench/held-connections.sh 100000} on the 2-core, 24 GiB machine (docs/performance.md,
     * "A hundred thousand held connections"): RSS growth per connection while holding, slab growth for the kernel, and
     * an idle worker's and server's RSS.
     */
    public static final ConnectionCosts MEASURED = new ConnectionCosts(4_600, 3_200, 8_400, 160L << 20, 110L << 20);
}
