package io.ricochet.loadgen.rpc;

import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.scenario.Load;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop RPC benchmark with a fixed amount of work: it connects every client in {@link #prepare} (failing with
 * {@code RpcException(UNAVAILABLE)} if one cannot connect) and is finished when every unit (a call, or a registration
 * cycle) has been answered, failed or timed out.
 */
public interface RpcWorkload extends Load {

    /** Units of work in all. */
    long total();

    /** Ended units: {@code received = ok + bad + errors}. */
    Counters counters();

    /** Latency per step, for workloads made of steps; empty otherwise. */
    Map<String, LatencySummary> steps();

    /** Per-client figures; empty for workloads without one client per unit of concurrency. */
    List<ClientRow> clients(double seconds);

    String io();

    /** The first failure or mismatch seen, for the report; null if none. */
    String firstError();

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
