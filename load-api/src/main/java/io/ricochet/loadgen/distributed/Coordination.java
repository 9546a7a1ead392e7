package io.ricochet.loadgen.distributed;

import com.google.protobuf.Empty;
import io.ricochet.loadgen.distributed.proto.Assignment;
import io.ricochet.loadgen.distributed.proto.Done;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.distributed.proto.Ready;
import io.ricochet.rpc.MethodDescriptor;

/** The RPC methods of a distributed run, by name and typed. */
public final class Coordination {
    /** Worker → controller: who I am; answers the worker's {@code Assignment}. */
    public static final String HELLO = "worker.hello";
    /** Worker → controller: my shard is parsed and I wait at the start barrier. */
    public static final String READY = "worker.ready";
    /** Worker → controller: one interval's counters and histograms. */
    public static final String REPORT = "worker.report";
    /** Worker → controller: my run is over, with my summary. */
    public static final String DONE = "worker.done";
    /** Controller → worker: every worker is ready; go. */
    public static final String START = "worker.start";
    /** Controller → worker: stop now (Ctrl-C on the controller, or the run is abandoned). */
    public static final String STOP = "worker.stop";

    public static final MethodDescriptor<Hello, Assignment> HELLO_METHOD = MethodDescriptor.of(HELLO,
            Hello.getDefaultInstance(), Assignment.getDefaultInstance());
    public static final MethodDescriptor<Ready, Empty> READY_METHOD = MethodDescriptor.of(READY,
            Ready.getDefaultInstance(), Empty.getDefaultInstance());
    public static final MethodDescriptor<IntervalReport, Empty> REPORT_METHOD = MethodDescriptor.of(REPORT,
            IntervalReport.getDefaultInstance(), Empty.getDefaultInstance());
    public static final MethodDescriptor<Done, Empty> DONE_METHOD = MethodDescriptor.of(DONE,
            Done.getDefaultInstance(), Empty.getDefaultInstance());

    /**
     * Largest payload either end sends or takes. A report is three compressed histograms (at most
     * {@link HistogramCodec#MAX_ENCODED_BYTES} each, a few KiB in practice) and a few counters; the
     * largest call is {@code worker.done}, whose summary JSON lists every client of an RPC run. 8 MiB holds
     * that with room, and bounds what one call can make the controller buffer.
     */
    public static final int MAX_PAYLOAD = 8 * 1024 * 1024;

    private Coordination() {
    }
}
