package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.stats.RunStats;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.HdrHistogram.Histogram;

/**
 * HdrHistograms on the wire in HdrHistogram's own compressed form, which keeps every count: adding the
 * decoded histograms gives exactly the histogram of all recordings.
 *
 * <p>Decoding trusts nothing it reads. HdrHistogram's own decoder allocates whatever the bytes claim (a
 * compressed length, a counts array for any precision and range), so the headers are parsed and checked
 * here first, and only a histogram of exactly {@link RunStats#newHistogram()}'s shape is decoded.
 */
public final class HistogramCodec {
    /** Largest encoded histogram: a full-range one at 3 digits inflates to at most {@link #MAX_DECODED_BYTES}. */
    static final int MAX_ENCODED_BYTES = 256 * 1024;
    /** What {@code encodeIntoCompressedByteBuffer} writes first: the V2 compressed base 0x1c849304, word size 9 (0x10). */
    static final int COMPRESSED_COOKIE = 0x1c849314;
    /** The first int of the inflated encoding: the V2 base 0x1c849303, word size 9 (0x10). */
    static final int UNCOMPRESSED_COOKIE = 0x1c849313;
    /** The compressed header: cookie, length of the compressed contents. */
    private static final int COMPRESSED_HEADER_BYTES = 8;
    /** The inflated header: cookie, payload length, offset, digits (ints), lowest, highest (longs), ratio (double). */
    static final int HEADER_BYTES = 40;
    /** The most a run's histogram inflates to: its header and every count at the widest word. */
    static final int MAX_DECODED_BYTES = RunStats.newHistogram().getNeededByteBufferCapacity();
    /** A run histogram's buckets: HdrHistogram sizes its buffer at 9 bytes a bucket, the widest word, after the header. */
    static final int BUCKETS = (MAX_DECODED_BYTES - HEADER_BYTES) / 9;
    /**
     * The longest payload: HdrHistogram's decoder reads no more than 8 bytes a bucket, so bytes past that would be
     * neither decoded nor checked. Every count within {@link ValidReport#MAX_COUNT}, and every run of empty buckets
     * within the range, takes at most 8.
     */
    static final int MAX_PAYLOAD_BYTES = 8 * BUCKETS;

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
     * Decodes {@code bytes}, a run histogram as {@link #encode} writes it; null for empty bytes. Decoding
     * is the expensive part (inflate, then a counts array the size of the whole range), so a histogram
     * that goes to several totals is decoded once.
     *
     * @throws IllegalArgumentException if the bytes are not such a histogram; nothing big is allocated first
     */
    public static Histogram decode(ByteString bytes) {
        if (bytes.isEmpty()) {
            return null;
        }
        checkCompressedHeader(bytes);
        return decodeChecked(ByteBuffer.wrap(inflate(bytes)));
    }

    /**
     * A decoded run histogram, null for empty bytes, and whether none of its counts is negative and each, and their
     * sum, is at most the bound it was decoded with.
     */
    record Bounded(Histogram histogram, boolean countsWithin) {
    }

    /**
     * Decodes {@code bytes} as {@link #decode} does, and sees whether its counts are within {@code maxCount}. The
     * counts are read in their encoded form, where a run of empty buckets is one word, so this costs in proportion to
     * the buckets in use: a walk of the decoded histogram visits all 23,552 buckets of a run histogram's range, and
     * cost the controller about 130 µs per report.
     *
     * @throws IllegalArgumentException as {@link #decode} does
     */
    static Bounded decodeBounded(ByteString bytes, long maxCount) {
        if (bytes.isEmpty()) {
            return new Bounded(null, true);
        }
        checkCompressedHeader(bytes);
        byte[] decoded = inflate(bytes);
        Histogram histogram = decodeChecked(ByteBuffer.wrap(decoded));
        // Decoded first: the payload is then known to be whole words, all of which the decoder read.
        ByteBuffer counts = ByteBuffer.wrap(decoded, HEADER_BYTES, decoded.length - HEADER_BYTES);
        try {
            return new Bounded(histogram, countsWithin(counts, maxCount));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("counts: " + e.getMessage(), e);
        }
    }

    /**
     * Whether each count of a V2 payload, and their sum, is in {@code 0..maxCount}. A negative word is a run of
     * empty buckets, except {@code Long.MIN_VALUE}, which has no negation: HdrHistogram's decoder stores it as a count.
     *
     * @throws IllegalArgumentException for runs of empty buckets past the range: HdrHistogram's decoder adds them to an
     *                                  int unchecked, so they can wrap it back and a later count overwrite an earlier
     */
    private static boolean countsWithin(ByteBuffer counts, long maxCount) {
        long total = 0;
        long bucket = 0;
        while (counts.hasRemaining()) {
            long word = zigZagWord(counts);
            if (word < 0 && word != Long.MIN_VALUE) {
                bucket -= word;
                if (bucket > BUCKETS) {
                    throw new IllegalArgumentException("empty buckets up to bucket " + bucket + " (expected: <= "
                            + BUCKETS + ", the range's)");
                }
                continue;
            }
            bucket++;
            if (word < 0 || word > maxCount) {
                return false;
            }
            total += word;
            if (total > maxCount) {
                return false;
            }
        }
        return true;
    }

    /**
     * One word as HdrHistogram's V2 encoding writes it: ZigZag, then LEB128 of at most 9 bytes, the ninth holding 8 bits.
     * HdrHistogram keeps its own reader package-private, and protobuf's varint differs in the ninth byte.
     */
    private static long zigZagWord(ByteBuffer in) {
        long raw = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            byte b = in.get();
            raw |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        raw |= (long) (in.get() & 0xff) << 56;
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** The size, the cookie, and a compressed length that is exactly the bytes that follow. */
    private static void checkCompressedHeader(ByteString bytes) {
        if (bytes.size() > MAX_ENCODED_BYTES) {
            throw new IllegalArgumentException("size: " + bytes.size() + " bytes (expected: <= " + MAX_ENCODED_BYTES + ")");
        }
        if (bytes.size() < COMPRESSED_HEADER_BYTES) {
            throw new IllegalArgumentException("size: " + bytes.size() + " bytes (expected: >= " + COMPRESSED_HEADER_BYTES
                    + ", the compressed header)");
        }
        ByteBuffer compressed = bytes.asReadOnlyByteBuffer();
        int cookie = compressed.getInt();
        if (cookie != COMPRESSED_COOKIE) {
            throw new IllegalArgumentException("cookie: " + hex(cookie) + " (expected: " + hex(COMPRESSED_COOKIE)
                    + ", a compressed V2 HdrHistogram)");
        }
        int length = compressed.getInt();
        if (length != compressed.remaining()) {
            throw new IllegalArgumentException("compressed length: " + length + " (expected: " + compressed.remaining()
                    + ", the bytes that follow)");
        }
    }

    /** The uncompressed encoding: header first, checked, then exactly the payload it announces and no more. */
    private static byte[] inflate(ByteString bytes) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(bytes.substring(COMPRESSED_HEADER_BYTES).toByteArray());
            // The header alone first: the payload buffer is sized only once the header is known to be ours.
            byte[] header = new byte[HEADER_BYTES];
            int headerBytes = inflate(inflater, header, 0, HEADER_BYTES);
            if (headerBytes < HEADER_BYTES) {
                throw new IllegalArgumentException("header: inflates to " + headerBytes + " bytes (expected: "
                        + HEADER_BYTES + ")");
            }
            int payload = checkHeader(ByteBuffer.wrap(header));
            byte[] decoded = new byte[HEADER_BYTES + payload];
            System.arraycopy(header, 0, decoded, 0, HEADER_BYTES);
            int payloadBytes = inflate(inflater, decoded, HEADER_BYTES, payload);
            if (payloadBytes < payload) {
                throw new IllegalArgumentException("payload: inflates to " + payloadBytes + " bytes (expected: " + payload
                        + ", its payload length)");
            }
            if (inflate(inflater, new byte[1], 0, 1) > 0) {
                throw new IllegalArgumentException("payload: inflates to more than its payload length, " + payload + " bytes");
            }
            if (!inflater.finished()) {
                throw new IllegalArgumentException("compressed contents: truncated (expected: a complete deflate stream)");
            }
            if (inflater.getRemaining() > 0) {
                throw new IllegalArgumentException("compressed contents: " + inflater.getRemaining()
                        + " bytes after the end (expected: 0)");
            }
            return decoded;
        } finally {
            // Frees zlib's native state now rather than at some later GC.
            inflater.end();
        }
    }

    /** Checks the inflated header is a run histogram's; its payload length. */
    private static int checkHeader(ByteBuffer header) {
        int cookie = header.getInt();
        int payload = header.getInt();
        int offset = header.getInt();
        int digits = header.getInt();
        long lowest = header.getLong();
        long highest = header.getLong();
        double ratio = header.getDouble();
        if (cookie != UNCOMPRESSED_COOKIE) {
            throw new IllegalArgumentException("inflated cookie: " + hex(cookie) + " (expected: " + hex(UNCOMPRESSED_COOKIE)
                    + ", a V2 HdrHistogram)");
        }
        if (digits != RunStats.DIGITS) {
            throw new IllegalArgumentException("significant digits: " + digits + " (expected: " + RunStats.DIGITS + ")");
        }
        if (lowest != RunStats.LOWEST_US) {
            throw new IllegalArgumentException("lowest trackable value: " + lowest + " (expected: " + RunStats.LOWEST_US + ")");
        }
        if (highest != RunStats.HIGHEST_US) {
            throw new IllegalArgumentException("highest trackable value: " + highest + " (expected: " + RunStats.HIGHEST_US + ")");
        }
        if (offset != 0) {
            throw new IllegalArgumentException("normalizing index offset: " + offset + " (expected: 0)");
        }
        if (ratio != 1.0) {
            throw new IllegalArgumentException("integer to double ratio: " + ratio + " (expected: 1.0)");
        }
        if (payload < 0 || payload > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payload length: " + payload + " (expected: 0.." + MAX_PAYLOAD_BYTES
                    + ")");
        }
        return payload;
    }

    /** HdrHistogram's decoder, now that the header is ours; a malformed payload (counts past the end) fails here. */
    private static Histogram decodeChecked(ByteBuffer decoded) {
        try {
            return Histogram.decodeFromByteBuffer(decoded, RunStats.HIGHEST_US);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("counts: not decodable (" + e + ")", e);
        }
    }

    /** Inflates up to {@code length} bytes into {@code into} at {@code offset}; fewer if the stream ends or runs dry. */
    private static int inflate(Inflater inflater, byte[] into, int offset, int length) {
        int done = 0;
        try {
            while (done < length) {
                int n = inflater.inflate(into, offset + done, length - done);
                if (n == 0) {
                    // Finished, out of input, or wants a dictionary: nothing more will come out.
                    break;
                }
                done += n;
            }
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("compressed contents: not a deflate stream (" + e.getMessage() + ")", e);
        }
        return done;
    }

    private static String hex(int value) {
        return String.format(Locale.ROOT, "0x%08x", value);
    }
}
