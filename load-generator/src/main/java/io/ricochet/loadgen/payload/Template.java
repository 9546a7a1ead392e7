package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Context;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Bytes with placeholders filled in per request, as tcpkali's message expressions are: {@code {{seq}}} (the request's
 * number on its connection), {@code {{conn}}} (the connection's run-wide index), {@code {{worker}}} (the worker's
 * index), {@code {{time_us}}} (the request's send time, microseconds since the epoch), each in decimal, and
 * {@code {{rand:N}}} (N random bytes, 1 to {@value #MAX_RANDOM_BYTES}, as 2N lowercase hex digits). Random bytes are
 * derived from the run's seed, the connection and the request, not drawn, so a reply's check regenerates what its
 * request sent. Everything outside placeholders is kept byte for byte.
 *
 * <pre>{@code
 * Template t = Template.parse("get key-{{conn}}-{{seq}}".getBytes(UTF_8), seed);
 * t.write(context, out); // "get key-3-17" for request 17 of connection 3
 * }</pre>
 *
 * Writing allocates nothing: digits and hex go straight into the buffer.
 */
public final class Template {
    /** The most random bytes one placeholder makes. */
    public static final int MAX_RANDOM_BYTES = 65_536;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private enum Kind { LITERAL, SEQ, CONN, WORKER, TIME_US, RAND }

    private record Segment(Kind kind, byte[] literal, int randomBytes) {
    }

    private final Segment[] segments;
    private final long seed;
    private final byte[] constant;

    private Template(List<Segment> segments, long seed) {
        this.segments = segments.toArray(new Segment[0]);
        this.seed = seed;
        this.constant = segments.stream().allMatch(s -> s.kind == Kind.LITERAL) ? concat(segments) : null;
    }

    /**
     * Parses {@code bytes}; a {@code {{…}}} that names no placeholder is an {@link IllegalArgumentException} saying
     * which, as is an unclosed one.
     *
     * @param seed the run's seed, from which {@code {{rand:N}}} derives its bytes
     */
    public static Template parse(byte[] bytes, long seed) {
        List<Segment> segments = new ArrayList<>();
        int literalStart = 0;
        int i = 0;
        while (i < bytes.length - 1) {
            if (bytes[i] == '{' && bytes[i + 1] == '{') {
                int close = indexOf(bytes, i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("an unclosed {{ at byte " + i + " (expected: {{seq}}, {{conn}}, "
                            + "{{worker}}, {{rand:N}} or {{time_us}}, closed by }})");
                }
                if (i > literalStart) {
                    segments.add(literal(Arrays.copyOfRange(bytes, literalStart, i)));
                }
                segments.add(placeholder(new String(bytes, i + 2, close - i - 2, StandardCharsets.UTF_8).trim()));
                i = close + 2;
                literalStart = i;
            } else {
                i++;
            }
        }
        if (literalStart < bytes.length) {
            segments.add(literal(Arrays.copyOfRange(bytes, literalStart, bytes.length)));
        }
        return new Template(segments, seed);
    }

    /** {@link #parse(byte[], long)} of {@code text}'s UTF-8 bytes. */
    public static Template parse(String text, long seed) {
        return parse(text.getBytes(StandardCharsets.UTF_8), seed);
    }

    /** A template of {@code bytes} as they are, with no placeholders ({@code hex:} payloads). */
    public static Template literalOf(byte[] bytes) {
        return new Template(bytes.length == 0 ? List.of() : List.of(literal(bytes.clone())), 0);
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int j = from; j < bytes.length - 1; j++) {
            if (bytes[j] == '}' && bytes[j + 1] == '}') {
                return j;
            }
        }
        return -1;
    }

    private static Segment literal(byte[] bytes) {
        return new Segment(Kind.LITERAL, bytes, 0);
    }

    private static Segment placeholder(String name) {
        switch (name) {
            case "seq":
                return new Segment(Kind.SEQ, null, 0);
            case "conn":
                return new Segment(Kind.CONN, null, 0);
            case "worker":
                return new Segment(Kind.WORKER, null, 0);
            case "time_us":
                return new Segment(Kind.TIME_US, null, 0);
            default:
                if (name.startsWith("rand:")) {
                    int n;
                    try {
                        n = Integer.parseInt(name.substring(5).trim());
                    } catch (NumberFormatException e) {
                        n = -1;
                    }
                    if (n < 1 || n > MAX_RANDOM_BYTES) {
                        throw new IllegalArgumentException("{{" + name + "}} (expected: {{rand:N}} with N from 1 to "
                                + MAX_RANDOM_BYTES + ")");
                    }
                    return new Segment(Kind.RAND, null, n);
                }
                throw new IllegalArgumentException("{{" + name + "}} names no placeholder (expected: {{seq}}, {{conn}}, "
                        + "{{worker}}, {{rand:N}} or {{time_us}})");
        }
    }

    private static byte[] concat(List<Segment> segments) {
        int n = 0;
        for (Segment s : segments) {
            n += s.literal.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (Segment s : segments) {
            System.arraycopy(s.literal, 0, all, at, s.literal.length);
            at += s.literal.length;
        }
        return all;
    }

    /** Whether it has no placeholders: every request the same bytes. */
    public boolean isConstant() {
        return constant != null;
    }

    /** Its bytes, when {@linkplain #isConstant constant}; a copy. */
    public byte[] constantBytes() {
        if (constant == null) {
            throw new IllegalStateException("a template with placeholders has no constant bytes");
        }
        return constant.clone();
    }

    /** Whether it uses {@code {{time_us}}}, whose value only the request's own send time gives. */
    public boolean usesTime() {
        for (Segment s : segments) {
            if (s.kind == Kind.TIME_US) {
                return true;
            }
        }
        return false;
    }

    /** The most bytes it writes for any request: its literals, 20 digits per number, 2 hex digits per random byte. */
    public int maxLength() {
        long n = 0;
        for (Segment s : segments) {
            n += switch (s.kind) {
                case LITERAL -> s.literal.length;
                case RAND -> 2L * s.randomBytes;
                default -> 20;
            };
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    /** Appends the bytes for {@code request} to {@code out}. */
    public void write(Context request, ByteBuf out) {
        if (constant != null) {
            out.writeBytes(constant);
            return;
        }
        for (int k = 0; k < segments.length; k++) {
            Segment s = segments[k];
            switch (s.kind) {
                case LITERAL -> out.writeBytes(s.literal);
                case SEQ -> writeDecimal(out, request.sequence());
                case CONN -> writeDecimal(out, request.connection());
                case WORKER -> writeDecimal(out, request.worker());
                case TIME_US -> writeDecimal(out, request.sendTimeMicros());
                case RAND -> writeRandom(out, request, k, s.randomBytes);
            }
        }
    }

    /**
     * Writes the bytes for {@code request} into {@code into} from 0, growing it if need be; returns the array holding
     * them (the same one if they fit) and sets {@code length[0]} to their count.
     */
    public byte[] expand(Context request, byte[] into, int[] length) {
        int at = 0;
        byte[] dst = into;
        for (int k = 0; k < segments.length; k++) {
            Segment s = segments[k];
            int need = switch (s.kind) {
                case LITERAL -> s.literal.length;
                case RAND -> 2 * s.randomBytes;
                default -> 20;
            };
            if (at + need > dst.length) {
                dst = Arrays.copyOf(dst, Math.max(dst.length * 2, at + need));
            }
            switch (s.kind) {
                case LITERAL -> {
                    System.arraycopy(s.literal, 0, dst, at, s.literal.length);
                    at += s.literal.length;
                }
                case SEQ -> at = putDecimal(dst, at, request.sequence());
                case CONN -> at = putDecimal(dst, at, request.connection());
                case WORKER -> at = putDecimal(dst, at, request.worker());
                case TIME_US -> at = putDecimal(dst, at, request.sendTimeMicros());
                case RAND -> {
                    long state = randomState(request, k);
                    for (int b = 0; b < s.randomBytes; b++) {
                        int v = randomByte(state, b);
                        dst[at++] = HEX[v >>> 4];
                        dst[at++] = HEX[v & 15];
                    }
                }
            }
        }
        length[0] = at;
        return dst;
    }

    /** The text for {@code request}, as UTF-8: for templates inside JSON string values. */
    public String expandToString(Context request) {
        int[] length = new int[1];
        byte[] bytes = expand(request, new byte[Math.min(maxLength(), 4096)], length);
        return new String(bytes, 0, length[0], StandardCharsets.UTF_8);
    }

    private void writeRandom(ByteBuf out, Context request, int segment, int bytes) {
        long state = randomState(request, segment);
        out.ensureWritable(2 * bytes);
        for (int b = 0; b < bytes; b++) {
            int v = randomByte(state, b);
            out.writeByte(HEX[v >>> 4]);
            out.writeByte(HEX[v & 15]);
        }
    }

    /** A state from the seed, the connection, the request and the placeholder, from which its bytes follow. */
    private long randomState(Context request, int segment) {
        return mix(seed ^ mix(request.connection() * 0x9E3779B97F4A7C15L + request.sequence()) ^ (segment + 1) * 0xC2B2AE3D27D4EB4FL);
    }

    /** Byte {@code b} of the random bytes from {@code state}: a mixed word per eight bytes. */
    private static int randomByte(long state, int b) {
        return (int) (mix(state + (b >>> 3) * 0x9E3779B97F4A7C15L) >>> (8 * (b & 7))) & 0xff;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static void writeDecimal(ByteBuf out, long v) {
        out.ensureWritable(20);
        if (v < 0) {
            out.writeByte('-');
            v = -v;
        }
        // Digits from the most significant: the divisor is found first, so nothing is reversed or allocated.
        long divisor = 1;
        while (v / divisor >= 10) {
            divisor *= 10;
        }
        while (divisor > 0) {
            out.writeByte((int) ('0' + v / divisor % 10));
            divisor /= 10;
        }
    }

    private static int putDecimal(byte[] dst, int at, long v) {
        if (v < 0) {
            dst[at++] = '-';
            v = -v;
        }
        long divisor = 1;
        while (v / divisor >= 10) {
            divisor *= 10;
        }
        while (divisor > 0) {
            dst[at++] = (byte) ('0' + v / divisor % 10);
            divisor /= 10;
        }
        return at;
    }
}
