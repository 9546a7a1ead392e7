package io.ricochet.loadgen.workload;

import java.util.OptionalLong;

/**
 * What a load test sends and how it checks each reply: a {@link FrameWorkload} for a framed protocol over TCP, UDP or
 * QUIC, or an {@link RpcWorkload} for the methods of a Ricochet RPC server. One instance serves every connection, from
 * every event loop at once: keep what belongs to one connection in its conversation, and make what is shared
 * thread-safe.
 *
 * <pre>{@code
 * Workload workload = new PingWorkload();   // a FrameWorkload: its open(context) gives each connection a conversation
 * LoadTest.tcp(address).workload((FrameWorkload) workload).connections(10).duration(Duration.ofSeconds(5)).run();
 * }</pre>
 */
public interface Workload {

    /**
     * The resident memory this workload's own state adds to each held connection, in bytes: what its conversation
     * keeps. The capacity plan ({@code plan}, and the controller before a run) adds it to the engine's measured cost
     * of a connection (4,000 B). Empty (the default): nothing worth counting.
     *
     * <pre>{@code
     * public OptionalLong bytesPerConnection() {
     *     return OptionalLong.of(KEYS_REMEMBERED * 64L);
     * }
     * }</pre>
     */
    default OptionalLong bytesPerConnection() {
        return OptionalLong.empty();
    }
}
