package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.ByteString;
import org.HdrHistogram.Histogram;

/**
 * Any bytes a worker may send as a histogram: they decode to a run histogram or are refused with
 * {@link IllegalArgumentException}, never anything else (an OutOfMemoryError from a claimed size included),
 * and what decodes is exact: encoded again, it decodes to the same histogram.
 */
class HistogramCodecFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void decodesOrRefusesAndRoundTrips(byte[] bytes) {
        Histogram decoded;
        try {
            decoded = HistogramCodec.decode(ByteString.copyFrom(bytes));
        } catch (IllegalArgumentException refused) {
            return;
        }
        if (decoded == null) {
            assertEquals(0, bytes.length, "null for bytes that are not empty");
            return;
        }
        if (decoded.getTotalCount() > 0) {
            assertEquals(decoded, HistogramCodec.decode(HistogramCodec.encode(decoded)));
        }
    }
}
