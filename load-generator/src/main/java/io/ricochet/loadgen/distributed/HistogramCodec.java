package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.stats.RunStats;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * HdrHistograms on the wire in HdrHistogram's own compressed form, which keeps every count: adding the
 * decoded histograms gives exactly the histogram of all recordings.
 */
public final class HistogramCodec {
    private HistogramCodec() {
    }

    public static ByteString encode(Histogram histogram) {
        if (histogram == null || histogram.getTotalCount() == 0) {
            return ByteString.EMPTY;
        }
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return ByteString.copyFrom(buffer.array(), 0, length);
    }

    /**
     * Decodes {@code bytes} once and adds the result to each of {@code into}; empty bytes add nothing.
     * Decoding is the expensive part (inflate, then a counts array the size of the whole range), so a
     * histogram that goes to several totals is decoded only once.
     */
    public static void addTo(ByteString bytes, Histogram... into) {
        if (bytes.isEmpty()) {
            return;
        }
        Histogram decoded;
        try {
            decoded = Histogram.decodeFromCompressedByteBuffer(bytes.asReadOnlyByteBuffer(), RunStats.HIGHEST_US);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("histogram: not a compressed HdrHistogram (" + e.getMessage() + ")", e);
        }
        for (Histogram target : into) {
            target.add(decoded);
        }
    }
}
