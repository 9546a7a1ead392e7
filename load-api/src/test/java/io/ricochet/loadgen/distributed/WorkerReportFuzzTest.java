package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import org.HdrHistogram.Histogram;

/**
 * Any bytes a worker may send as an interval report: refused as protobuf or by {@link ValidReport}, or
 * accepted with every count in bounds, so merging accepted reports cannot overflow. Nothing else is thrown.
 */
class WorkerReportFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void refusedOrWithinBounds(byte[] bytes) {
        IntervalReport report;
        try {
            report = IntervalReport.parseFrom(bytes);
        } catch (InvalidProtocolBufferException refused) {
            return;
        }
        ValidReport valid;
        try {
            valid = ValidReport.of(report);
        } catch (IllegalArgumentException refused) {
            return;
        }
        for (long count : new long[] {report.getSent(), report.getOk(), report.getBad(), report.getErrors(),
                report.getLate(), report.getOkBytes(), report.getConnects(), report.getConnectFailures()}) {
            assertTrue(count >= 0 && count <= ValidReport.MAX_COUNT, "count " + count + " accepted");
        }
        for (Histogram h : new Histogram[] {valid.latency(), valid.service(), valid.connect()}) {
            if (h != null) {
                assertTrue(h.getTotalCount() >= 0 && h.getTotalCount() <= ValidReport.MAX_COUNT,
                        "histogram total " + h.getTotalCount() + " accepted");
            }
        }
    }
}
