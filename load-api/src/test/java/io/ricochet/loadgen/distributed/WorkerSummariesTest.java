package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summary;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class WorkerSummariesTest {
    private static final LatencySummary LATENCY = LatencySummary.of(new Histogram(3));

    @Test
    void aSummaryAndItsJsonGiveTheSameTypedForm() throws Exception {
        Summary echo = new Summary("echo", "127.0.0.1:7000", "tcp", "epoll", 10, 4, 9, 1, 0, 0, 0, 0, 1.5, 6.7, 100.0,
                LATENCY, "corrected", LATENCY, LATENCY, LATENCY, 0L, "TLSv1.3 (openssl client)", null, null, "oops",
                "connection 3 request 7: not reversed");
        WorkerSummary typed = WorkerSummaries.of(echo);
        assertEquals(typed, WorkerSummaries.fromJson(ReportWriter.JSON.readTree(ReportWriter.JSON.writeValueAsString(echo))));
        assertEquals(4, typed.getConnections());
        assertTrue(typed.getHandshakes());
        assertEquals("connection 3 request 7: not reversed", typed.getFirstBad(), "the first bad reply reaches the controller");
        assertNull(WorkerSummaries.problem(typed));
    }

    /** A QUIC crr worker's 0-RTT counts reach the controller, from the summary or its JSON alike. */
    @Test
    void earlyDataCountsAreCarried() throws Exception {
        Summary crr = new Summary("crr", "127.0.0.1:7443", "quic", "epoll", 10, 1, 10, 0, 0, 0, 0, 0, 1.0, 10.0, 640.0,
                LATENCY, "closed_loop", null, LATENCY, null, null, null, new Summary.EarlyData(9, 11), null, null, null);
        WorkerSummary typed = WorkerSummaries.of(crr);
        assertEquals(typed, WorkerSummaries.fromJson(ReportWriter.JSON.readTree(ReportWriter.JSON.writeValueAsString(crr))));
        assertTrue(typed.getEarlyDataCounted());
        assertEquals(9, typed.getEarlyData());
        assertEquals(11, typed.getQuicConnections());
        assertNull(WorkerSummaries.problem(typed));
    }

    @Test
    void anRpcSummaryCountsItsClientsAsConnections() throws Exception {
        RpcSummary rpc = new RpcSummary("rpc", "127.0.0.1:7100", "epoll", 100, 5, 2, 100, 100, 0, 0, 2.0, 50.0, LATENCY,
                "closed_loop", Map.of(), List.of(), null, null, null);
        WorkerSummary typed = WorkerSummaries.of(rpc);
        assertEquals(typed, WorkerSummaries.fromJson(ReportWriter.JSON.readTree(ReportWriter.JSON.writeValueAsString(rpc))));
        assertEquals("rpc", typed.getTransport());
        assertEquals(5, typed.getConnections());
        assertEquals(2.0, typed.getDurationS());
        assertEquals("closed_loop", typed.getLatencyKind());
    }

    @Test
    void eachImpossibleFieldIsNamedWithItsValue() {
        WorkerSummary ok = WorkerSummary.newBuilder().setTransport("tcp").setIo("nio").setLatencyKind("closed_loop").build();
        assertNull(WorkerSummaries.problem(ok));
        assertEquals("connections: -1 (expected: 0..10000000)",
                WorkerSummaries.problem(ok.toBuilder().setConnections(-1).build()));
        assertEquals("duration_s: Infinity (expected: a finite number >= 0)",
                WorkerSummaries.problem(ok.toBuilder().setDurationS(Double.POSITIVE_INFINITY).build()));
        assertEquals("latency_kind: '' (expected: closed_loop or corrected)",
                WorkerSummaries.problem(ok.toBuilder().setLatencyKind("").build()));
        assertTrue(WorkerSummaries.problem(ok.toBuilder().setTransport("x".repeat(33)).build())
                .startsWith("transport or io: "));
        // A fallback's label carries its cause: a worker that fell back to NIO still reports, and says so.
        assertNull(WorkerSummaries.problem(ok.toBuilder().setIo("nio (auto: epoll unavailable: java.lang."
                + "UnsatisfiedLinkError: /tmp/libnetty_transport_native_epoll_x86_64.so: failed to map segment from "
                + "shared object)").build()));
        assertTrue(WorkerSummaries.problem(ok.toBuilder().setIo("x".repeat(513)).build()).startsWith("transport or io: "));
        assertTrue(WorkerSummaries.problem(ok.toBuilder().setTlsSession("x".repeat(201)).build())
                .startsWith("tls_session: 201 characters"));
        assertEquals("early_data: 3 of 2 (expected: 0 <= early <= connections)",
                WorkerSummaries.problem(ok.toBuilder().setEarlyData(3).setQuicConnections(2).build()));
    }
}
