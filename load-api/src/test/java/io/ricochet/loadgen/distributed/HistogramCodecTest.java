package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.stats.RunStats;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Histograms on the wire: real ones decode exactly, anything else is refused before it costs memory or time. */
class HistogramCodecTest {

    @Test
    void aRunHistogramDecodesExactly() {
        Histogram h = RunStats.newHistogram();
        for (long v = RunStats.LOWEST_US; v < RunStats.HIGHEST_US; v = v * 3 / 2 + 1) {
            h.recordValueWithCount(v, v % 7 + 1);
        }
        h.recordValue(RunStats.HIGHEST_US);
        Histogram decoded = HistogramCodec.decode(HistogramCodec.encode(h));
        assertEquals(h, decoded);
        assertEquals(h.getTotalCount(), decoded.getTotalCount());
        assertEquals(h.getMaxValue(), decoded.getMaxValue());
        assertEquals(h.getValueAtPercentile(99.9), decoded.getValueAtPercentile(99.9));
        assertNull(HistogramCodec.decode(ByteString.EMPTY));
    }

    @Test
    void theFullestRunHistogramFitsTheEncodedCap() {
        // Every bucket with a different large count: as little for deflate to squeeze as a run histogram gets.
        Histogram h = RunStats.newHistogram();
        SplittableRandom random = new SplittableRandom(1);
        for (long v = RunStats.LOWEST_US; v <= RunStats.HIGHEST_US; v = h.nextNonEquivalentValue(v)) {
            h.recordValueWithCount(v, 1 + random.nextLong(1L << 40));
        }
        ByteString bytes = HistogramCodec.encode(h);
        assertTrue(bytes.size() <= HistogramCodec.MAX_ENCODED_BYTES, bytes.size() + " bytes");
        assertEquals(h, HistogramCodec.decode(bytes));
    }

    /** The layout the codec parses, checked against the HdrHistogram on the classpath. */
    @Test
    void theHeadersAreHdrHistogramsOwn() throws Exception {
        Histogram h = RunStats.newHistogram();
        h.recordValue(42);
        ByteBuffer compressed = HistogramCodec.encode(h).asReadOnlyByteBuffer();
        int cookie = compressed.getInt();
        assertEquals(HistogramCodec.COMPRESSED_COOKIE, cookie);
        assertEquals(0x1c849304, cookie & ~0xf0, "the V2 compressed base");
        int length = compressed.getInt();
        assertEquals(compressed.remaining(), length, "the compressed length: the bytes that follow");
        byte[] rest = new byte[compressed.remaining()];
        compressed.get(rest);
        Inflater inflater = new Inflater();
        inflater.setInput(rest);
        byte[] inflated = new byte[HistogramCodec.MAX_DECODED_BYTES];
        int n = inflater.inflate(inflated);
        inflater.end();
        ByteBuffer header = ByteBuffer.wrap(inflated, 0, n);
        assertEquals(HistogramCodec.UNCOMPRESSED_COOKIE, header.getInt());
        assertEquals(n - HistogramCodec.HEADER_BYTES, header.getInt(), "payload length");
        assertEquals(0, header.getInt(), "normalizing index offset");
        assertEquals(RunStats.DIGITS, header.getInt());
        assertEquals(RunStats.LOWEST_US, header.getLong());
        assertEquals(RunStats.HIGHEST_US, header.getLong());
        assertEquals(1.0, header.getDouble());
        assertEquals(HistogramCodec.HEADER_BYTES, header.position());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void anythingElseIsRefused(String what, Supplier<ByteString> bytes, String expected) {
        ByteString encoded = bytes.get();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistogramCodec.decode(encoded));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                refused("a 2e9-byte compressed length in 18 bytes", HistogramCodecTest::claimsTwoGigabytes,
                        "compressed length: 2000000000 (expected: 10, the bytes that follow)"),
                refused("5 significant digits", HistogramCodecTest::fiveDigits, "significant digits: 5 (expected: 3)"),
                refused("more than the encoded cap", () -> ByteString.copyFrom(new byte[HistogramCodec.MAX_ENCODED_BYTES + 1]),
                        "size: " + (HistogramCodec.MAX_ENCODED_BYTES + 1) + " bytes (expected: <= "),
                refused("shorter than the compressed header", () -> ByteString.copyFrom(new byte[5]),
                        "size: 5 bytes (expected: >= 8"),
                refused("not compressed", () -> ByteString.copyFrom(uncompressed(sample())),
                        "cookie: 0x1c849313 (expected: 0x1c849314"),
                refused("another lowest value", () -> compressed(uncompressed(new Histogram(2, RunStats.HIGHEST_US, 3))),
                        "lowest trackable value: 2 (expected: 1)"),
                refused("another range", () -> compressed(uncompressed(new Histogram(1, 1_000_000, 3))),
                        "highest trackable value: 1000000 (expected: 3600000000)"),
                refused("a normalizing offset", () -> compressed(patchInt(uncompressed(sample()), 8, 3)),
                        "normalizing index offset: 3 (expected: 0)"),
                refused("a conversion ratio", HistogramCodecTest::withRatio, "integer to double ratio: 2.0 (expected: 1.0)"),
                refused("an uncompressed cookie of another version", () -> compressed(patchInt(uncompressed(sample()), 0, 0x1c849301)),
                        "inflated cookie: 0x1c849301"),
                refused("a payload length past the largest", () -> compressed(patchInt(uncompressed(sample()), 4,
                        HistogramCodec.MAX_DECODED_BYTES)), "payload length: " + HistogramCodec.MAX_DECODED_BYTES),
                refused("more inflated bytes than the payload length", HistogramCodecTest::deflateBomb,
                        "inflates to more than its payload length"),
                refused("fewer inflated bytes than the payload length", () -> compressed(patchInt(uncompressed(sample()), 4, 5_000)),
                        "payload: inflates to"),
                refused("a truncated deflate stream", HistogramCodecTest::truncated, "payload: inflates to"),
                refused("a deflate stream that never ends", HistogramCodecTest::unfinished,
                        "compressed contents: truncated (expected: a complete deflate stream)"),
                refused("bytes after the deflate stream", HistogramCodecTest::trailing, "3 bytes after the end"),
                refused("not deflate", () -> withCompressedHeader(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
                        "not a deflate stream"),
                refused("counts past the end of the range", HistogramCodecTest::countsPastTheEnd, "counts: not decodable"),
                refused("a payload longer than the decoder reads", HistogramCodecTest::pastWhatTheDecoderReads,
                        "payload length: " + (HistogramCodec.MAX_PAYLOAD_BYTES + 1) + " (expected: 0.."
                                + HistogramCodec.MAX_PAYLOAD_BYTES + ")"));
    }

    private static Arguments refused(String what, Supplier<ByteString> bytes, String expected) {
        return Arguments.of(what, bytes, expected);
    }

    @Test
    void theHostileOnesAreRefusedWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (ByteString hostile : new ByteString[] {claimsTwoGigabytes(), fiveDigits()}) {
            assertThrows(IllegalArgumentException.class, () -> HistogramCodec.decode(hostile));
            long before = threads.getCurrentThreadAllocatedBytes();
            assertThrows(IllegalArgumentException.class, () -> HistogramCodec.decode(hostile));
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // The old decoder allocated what the bytes claimed: 2 GB, or 18 MB of counts at 5 digits.
            assertTrue(allocated < 256 * 1024, allocated + " bytes allocated");
        }
    }

    /** 18 bytes: the compressed cookie and a compressed length of 2,000,000,000. */
    private static ByteString claimsTwoGigabytes() {
        return ByteString.copyFrom(ByteBuffer.allocate(18).putInt(HistogramCodec.COMPRESSED_COOKIE).putInt(2_000_000_000)
                .array());
    }

    /** A real, tiny histogram at 5 significant digits: decoding it allocates 18 MB of counts. */
    private static ByteString fiveDigits() {
        Histogram h = new Histogram(RunStats.LOWEST_US, RunStats.HIGHEST_US, 5);
        h.recordValue(100);
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        return ByteString.copyFrom(b.array(), 0, n);
    }

    /** A ratio of 2.0 in the header's last field (a DoubleHistogram's encoding carries one). */
    private static ByteString withRatio() {
        byte[] bytes = uncompressed(sample());
        ByteBuffer.wrap(bytes).putDouble(32, 2.0);
        return compressed(bytes);
    }

    private static ByteString deflateBomb() {
        byte[] real = uncompressed(sample());
        return compressed(Arrays.copyOf(real, real.length + 1_000_000));
    }

    /** Cut in the counts: the header inflates, the payload falls short. */
    private static ByteString truncated() {
        Histogram h = RunStats.newHistogram();
        for (long v = 1; v < 1_000_000; v += 997) {
            h.recordValue(v);
        }
        byte[] deflated = deflate(uncompressed(h));
        return withCompressedHeader(Arrays.copyOf(deflated, deflated.length / 2));
    }

    /** Every byte of the payload, flushed but never finished: the stream's end never comes. */
    private static ByteString unfinished() {
        byte[] bytes = uncompressed(sample());
        Deflater deflater = new Deflater();
        deflater.setInput(bytes);
        byte[] out = new byte[bytes.length + 1024];
        int n = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        deflater.end();
        return withCompressedHeader(Arrays.copyOf(out, n));
    }

    private static ByteString trailing() {
        byte[] deflated = deflate(uncompressed(sample()));
        return withCompressedHeader(Arrays.copyOf(deflated, deflated.length + 3));
    }

    /** A header of ours and a payload of one count per byte, more of them than the range has buckets. */
    private static ByteString countsPastTheEnd() {
        byte[] header = Arrays.copyOf(uncompressed(RunStats.newHistogram()), HistogramCodec.HEADER_BYTES);
        int buckets = (HistogramCodec.MAX_DECODED_BYTES - HistogramCodec.HEADER_BYTES) / 9;
        byte[] payload = new byte[buckets + 10];
        Arrays.fill(payload, (byte) 2); // ZigZag LEB128 for a count of 1
        byte[] all = Arrays.copyOf(header, header.length + payload.length);
        System.arraycopy(payload, 0, all, header.length, payload.length);
        return compressed(patchInt(all, 4, payload.length));
    }

    /**
     * A run histogram's encoding with {@code words} as its payload, as HdrHistogram's V2 form writes them (ZigZag, then
     * LEB128 of at most 9 bytes): a negative word is a run of that many empty buckets, any other a count. HdrHistogram
     * itself refuses to encode a negative count.
     */
    static ByteString withWords(long... words) {
        ByteBuffer payload = ByteBuffer.allocate(9 * words.length);
        for (long word : words) {
            long raw = (word << 1) ^ (word >> 63);
            for (int i = 0; i < 8 && (raw & ~0x7fL) != 0; i++) {
                payload.put((byte) ((raw & 0x7f) | 0x80));
                raw >>>= 7;
            }
            payload.put((byte) raw);
        }
        return withPayload(Arrays.copyOf(payload.array(), payload.position()));
    }

    /**
     * Every bucket's count of 0 written long, in 8 bytes, then one byte more: HdrHistogram's decoder stops 8 bytes a
     * bucket in, so that byte was once neither decoded nor checked, and the controller's check of the counts read past
     * the end of the buffer.
     */
    static ByteString pastWhatTheDecoderReads() {
        byte[] payload = new byte[HistogramCodec.MAX_PAYLOAD_BYTES + 1];
        for (int i = 0; i < HistogramCodec.MAX_PAYLOAD_BYTES; i++) {
            payload[i] = (byte) (i % 8 == 7 ? 0x00 : 0x80);
        }
        payload[HistogramCodec.MAX_PAYLOAD_BYTES] = (byte) 0x80;
        return withPayload(payload);
    }

    /** A run histogram's header, then {@code payload} as it is, its length in the header. */
    static ByteString withPayload(byte[] payload) {
        byte[] header = Arrays.copyOf(uncompressed(RunStats.newHistogram()), HistogramCodec.HEADER_BYTES);
        byte[] all = Arrays.copyOf(header, header.length + payload.length);
        System.arraycopy(payload, 0, all, header.length, payload.length);
        return compressed(patchInt(all, 4, payload.length));
    }

    private static Histogram sample() {
        Histogram h = RunStats.newHistogram();
        h.recordValue(100);
        h.recordValue(2_000);
        return h;
    }

    /** HdrHistogram's uncompressed encoding: the 40-byte header, then the counts. */
    private static byte[] uncompressed(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoByteBuffer(b);
        return Arrays.copyOf(b.array(), n);
    }

    private static byte[] patchInt(byte[] bytes, int offset, int value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).putInt(offset, value);
        return copy;
    }

    /** {@code uncompressed} deflated behind the compressed header, as encodeIntoCompressedByteBuffer lays it out. */
    private static ByteString compressed(byte[] uncompressed) {
        return withCompressedHeader(deflate(uncompressed));
    }

    private static ByteString withCompressedHeader(byte[] deflated) {
        return ByteString.copyFrom(ByteBuffer.allocate(8 + deflated.length).putInt(HistogramCodec.COMPRESSED_COOKIE)
                .putInt(deflated.length).put(deflated).array());
    }

    private static byte[] deflate(byte[] bytes) {
        Deflater deflater = new Deflater();
        deflater.setInput(bytes);
        deflater.finish();
        byte[] out = new byte[bytes.length + 1024];
        int n = deflater.deflate(out);
        deflater.end();
        return Arrays.copyOf(out, n);
    }
}
