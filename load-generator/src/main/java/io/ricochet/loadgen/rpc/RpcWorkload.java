package io.ricochet.loadgen.rpc;

import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.LatencySummary;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop RPC benchmark with a fixed amount of work: it ends when every unit (a call, or a
 * registration cycle) has been answered, failed or timed out.
 */
public interface RpcWorkload extends AutoCloseable {

    /** Connects every client; fails with {@code RpcException(UNAVAILABLE)} if one cannot connect. */
    void connect();

    /** Starts the work; the future completes when all of it has ended. */
    CompletableFuture<Void> start();

    /** Units of work in all. */
    long total();

    /** Ended units: {@code received = ok + bad + errors}. */
    Counters counters();

    /** Latency of each ended unit in microseconds, from its send; swapped out per interval. */
    Recorder latency();

    /** Latency per step, for workloads made of steps; empty otherwise. */
    Map<String, LatencySummary> steps();

    /** Per-client figures; empty for workloads without one client per unit of concurrency. */
    List<ClientRow> clients(double seconds);

    String io();

    /** The first failure or mismatch seen, for the report; null if none. */
    String firstError();

    @Override
    void close();

    /** The shared counters, 64-bit adders written from the event loops. */
    final class Counters {
        public final LongAdder ok = new LongAdder();
        public final LongAdder bad = new LongAdder();
        public final LongAdder errors = new LongAdder();

        public long received() {
            return ok.sum() + bad.sum() + errors.sum();
        }
    }
}
