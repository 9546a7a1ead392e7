package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.stats.RunStats;
import java.lang.management.ManagementFactory;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A report is checked field by field, and every failure names the field, the value and the expectation. */
class ValidReportTest {

    @Test
    void aWorkersReportIsValidWithItsHistogramsDecoded() {
        Histogram latency = RunStats.newHistogram();
        latency.recordValue(250);
        ValidReport r = ValidReport.of(FakeWorker.report(0, 0).setSent(3).setOk(1).setBad(1).setErrors(1)
                .setOpenConnections(2).setLatency(HistogramCodec.encode(latency)).build());
        assertEquals(latency, r.latency());
        assertNull(r.service());
        assertNotNull(r.report());
    }

    /**
     * Checking every bucket must not cost more than decoding: it once built two messages per bucket (tens of thousands
     * per report) before knowing whether the count failed, which made the controller's merge 28 times slower.
     */
    @Test
    void checkingTheBucketsAllocatesNoMoreThanDecoding() {
        Histogram latency = RunStats.newHistogram();
        for (long micros = 20; micros < 2_000_000_000L; micros = micros * 11 / 10 + 1) {
            latency.recordValue(micros);
        }
        IntervalReport report = FakeWorker.report(0, 0).setLatency(HistogramCodec.encode(latency)).build();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ValidReport.of(report);
        long before = threads.getCurrentThreadAllocatedBytes();
        ValidReport valid = ValidReport.of(report);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        long decoded = valid.latency().getEstimatedFootprintInBytes();
        assertTrue(allocated < 3 * decoded, allocated + " bytes allocated to check a histogram of " + decoded);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("wrong")
    void aWrongFieldIsNamed(UnaryOperator<IntervalReport.Builder> change, String expected) {
        IntervalReport report = change.apply(FakeWorker.report(0, 0)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals(expected, e.getMessage());
    }

    static Stream<Arguments> wrong() {
        long over = ValidReport.MAX_COUNT + 1;
        return Stream.of(
                wrong(b -> b.setSent(-1), "sent: -1 (expected: >= 0)"),
                wrong(b -> b.setOk(-5), "ok: -5 (expected: >= 0)"),
                wrong(b -> b.setBad(-1), "bad: -1 (expected: >= 0)"),
                wrong(b -> b.setErrors(Long.MIN_VALUE), "errors: " + Long.MIN_VALUE + " (expected: >= 0)"),
                wrong(b -> b.setLate(-1), "late: -1 (expected: >= 0)"),
                wrong(b -> b.setOkBytes(-1), "ok_bytes: -1 (expected: >= 0)"),
                wrong(b -> b.setConnects(-1), "connects: -1 (expected: >= 0)"),
                wrong(b -> b.setConnectFailures(-1), "connect_failures: -1 (expected: >= 0)"),
                wrong(b -> b.setOpenConnections(-1), "open_connections: -1 (expected: >= 0)"),
                wrong(b -> b.setOk(over), "ok: " + over + " (expected: <= " + ValidReport.MAX_COUNT + ")"),
                wrong(b -> b.setElapsedS(Double.NaN), "elapsed_s: NaN (expected: finite, >= 0)"),
                wrong(b -> b.setElapsedS(Double.POSITIVE_INFINITY), "elapsed_s: Infinity (expected: finite, >= 0)"),
                wrong(b -> b.setElapsedS(-1), "elapsed_s: -1.0 (expected: finite, >= 0)"),
                wrong(b -> b.setStartMillis(-1), "start_millis: -1 (expected: >= 0)"),
                wrong(b -> b.setStartMillis(10).setEndMillis(9), "end_millis: 9 (expected: >= start_millis, 10)"),
                wrong(b -> b.setConnect(com.google.protobuf.ByteString.copyFrom(new byte[3])),
                        "connect: size: 3 bytes (expected: >= 8, the compressed header)"));
    }

    private static Arguments wrong(UnaryOperator<IntervalReport.Builder> change, String expected) {
        return Arguments.of(change, expected);
    }

    /**
     * The counts are checked in their encoded form, in proportion to the buckets in use. {@code Long.MIN_VALUE} is the
     * one negative word that HdrHistogram decodes as a count, not as a run of empty buckets; two of them past the
     * histogram's last positive count sum to nothing, leave its total right, and are not reached by an iteration over
     * its recorded values.
     */
    @Test
    void negativeCountsPastTheLastRecordedValueAreRefused() {
        // Below 2,048 at 3 digits a bucket's index is its value: counts at 100, 200 and 300.
        com.google.protobuf.ByteString hidden = HistogramCodecTest.withWords(-100, 5, -99, Long.MIN_VALUE, -99,
                Long.MIN_VALUE);
        assertEquals(5, HistogramCodec.decode(hidden).getTotalCount(), "the sum this test is about");
        IntervalReport report = FakeWorker.report(0, 0).setService(hidden).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals("service count at 200: " + Long.MIN_VALUE + " (expected: >= 0)", e.getMessage());
    }

    /**
     * HdrHistogram's decoder adds runs of empty buckets to an int without a check, so runs past the range wrap it and a
     * later count overwrites an earlier one: the report's counts were not the ones it sent.
     */
    @Test
    void emptyBucketsPastTheRangeAreRefused() {
        IntervalReport report = FakeWorker.report(0, 0)
                .setLatency(HistogramCodecTest.withWords(5, -Integer.MAX_VALUE, -Integer.MAX_VALUE, -1, 7)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals("latency: counts: empty buckets up to bucket " + (1L + Integer.MAX_VALUE) + " (expected: <= "
                + HistogramCodec.BUCKETS + ", the range's)", e.getMessage());
    }

    /** Bytes past what the decoder reads once made the check read past the buffer: a named refusal now. */
    @Test
    void aPayloadLongerThanTheDecoderReadsIsRefusedByName() {
        IntervalReport report = FakeWorker.report(0, 0).setLatency(HistogramCodecTest.pastWhatTheDecoderReads()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals("latency: payload length: " + (HistogramCodec.MAX_PAYLOAD_BYTES + 1) + " (expected: 0.."
                + HistogramCodec.MAX_PAYLOAD_BYTES + ")", e.getMessage());
    }

    /** A count just over the bound is found in the encoded form, and named by the walk. */
    @Test
    void aCountOverTheBoundIsNamed() {
        Histogram big = RunStats.newHistogram();
        big.recordValueWithCount(100, 1);
        big.recordValueWithCount(7_000, ValidReport.MAX_COUNT + 1);
        IntervalReport report = FakeWorker.report(0, 0).setConnect(HistogramCodec.encode(big)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals("connect count at " + big.highestEquivalentValue(7_000) + ": " + (ValidReport.MAX_COUNT + 1)
                + " (expected: <= " + ValidReport.MAX_COUNT + ")", e.getMessage());
    }

    /** Counts each within the bound whose sum is not. */
    @Test
    void aTotalOverTheBoundIsNamed() {
        Histogram many = RunStats.newHistogram();
        many.recordValueWithCount(100, ValidReport.MAX_COUNT);
        many.recordValueWithCount(200, 1);
        IntervalReport report = FakeWorker.report(0, 0).setLatency(HistogramCodec.encode(many)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals("latency total count: " + (ValidReport.MAX_COUNT + 1) + " (expected: <= " + ValidReport.MAX_COUNT
                + ")", e.getMessage());
    }

    /** Counts near 2^63 once wrapped a histogram's total to 0, passed the check, and corrupted every percentile. */
    @Test
    void aHistogramWhoseCountsWrapItsTotalIsRefused() {
        Histogram wrapped = RunStats.newHistogram();
        wrapped.recordValueWithCount(100, Long.MAX_VALUE);
        wrapped.recordValueWithCount(200, Long.MAX_VALUE);
        wrapped.recordValueWithCount(300, 2);
        assertEquals(0, wrapped.getTotalCount(), "the wrap this test is about");
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(wrapped.getNeededByteBufferCapacity());
        int length = wrapped.encodeIntoCompressedByteBuffer(buffer);
        IntervalReport report = FakeWorker.report(0, 0)
                .setLatency(com.google.protobuf.ByteString.copyFrom(buffer.array(), 0, length)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidReport.of(report));
        assertEquals("latency count at 100: " + Long.MAX_VALUE + " (expected: <= " + ValidReport.MAX_COUNT + ")",
                e.getMessage());
    }
}
