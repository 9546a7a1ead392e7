package io.ricochet.loadgen.workload;

import java.util.OptionalLong;

/**
 * What a load test sends and how it checks each reply: a {@link FrameWorkload} for a framed protocol over TCP, UDP or
 * QUIC, or an {@link RpcWorkload} for the methods of a Ricochet RPC server. One instance serves every connection, from
 * every event loop at once: keep what belongs to one connection in its conversation, and make what is shared
 * thread-safe.
 */
public interface Workload {

    /**
     * The resident memory one held connection costs the generator with this workload, in bytes, engine included; the
     * capacity plan ({@code plan}, and the controller before a run) counts it instead of the measured default of an
     * echo connection (4,000 B). Empty (the default): the measured default.
     *
     * <pre>{@code
     * public OptionalLong bytesPerConnection() {
     *     return OptionalLong.of(4_000 + KEYS_REMEMBERED * 64);
     * }
     * }</pre>
     */
    default OptionalLong bytesPerConnection() {
        return OptionalLong.empty();
    }
}
