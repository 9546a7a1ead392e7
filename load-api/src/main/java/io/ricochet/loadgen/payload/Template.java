package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.engine.Mixing;
import io.ricochet.loadgen.workload.Context;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Bytes with placeholders filled in per request, as tcpkali's message expressions are: {@code {{seq}}} (the request's
 * number on its connection), {@code {{conn}}} (the connection's run-wide index), {@code {{worker}}} (the worker's
 * index), {@code {{time_us}}} (the request's send time, microseconds since the epoch), each in decimal, and
 * {@code {{rand:N}}} (N random bytes, 1 to {@value #MAX_RANDOM_BYTES}, as 2N lowercase hex digits). Random bytes are
 * derived from the run's seed, the connection, the request and the placeholder's rank among the template's
 * {@code {{rand:N}}}, not drawn, so a reply's check regenerates what its request sent; and the first {@code {{rand:N}}}
 * of an expected reply repeats the first of its request (the shorter of the two a prefix of the longer), the second the
 * second, and so on. Everything outside placeholders is kept byte for byte.
 *
 * <pre>{@code
 * Template t = Template.parse("get key-{{conn}}-{{seq}}".getBytes(UTF_8), seed);
 * t.write(context, out); // "get key-3-17" for request 17 of connection 3
 * }</pre>
 *
 * Writing allocates nothing: digits and hex go straight into the buffer or array. A template is immutable and may be
 * shared by every event loop.
 *
 * <p>Longer than 300 lines: the parser, the two allocation-free writers (into a {@link ByteBuf} or an array) and the
 * derived random bytes must agree on every placeholder kind, so they stay in one class.
 */
public final class Template {
    /** The most random bytes one placeholder makes. */
    public static final int MAX_RANDOM_BYTES = 65_536;
    /** The most bytes a number takes: {@code -9223372036854775808}. */
    private static final int MAX_DECIMAL = 20;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private enum Kind { LITERAL, SEQ, CONN, WORKER, TIME_US, RAND }

    /**
     * One part of a template: literal bytes, or a placeholder as written in {@code source}; a {@code {{rand:N}}} has
     * its N and its rank among the template's random placeholders.
     */
    private record Segment(Kind kind, byte[] literal, int randomBytes, int randomRank, String source) {
    }

    private final Segment[] segments;
    private final Segment[] placeholders;
    private final long seed;
    private final byte[] constant;

    private Template(List<Segment> segments, long seed) {
        this.segments = segments.toArray(new Segment[0]);
        this.placeholders = segments.stream().filter(s -> s.kind != Kind.LITERAL).toArray(Segment[]::new);
        this.seed = seed;
        this.constant = placeholders.length == 0 ? concat(segments) : null;
    }

    /**
     * Parses {@code bytes}; a {@code {{…}}} that names no placeholder is an {@link IllegalArgumentException} saying
     * which, as is an unclosed one.
     *
     * @param seed the run's seed, from which {@code {{rand:N}}} derives its bytes
     */
    public static Template parse(byte[] bytes, long seed) {
        List<Segment> segments = new ArrayList<>();
        int randoms = 0;
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
                Segment placeholder = placeholder(new String(bytes, i, close + 2 - i, StandardCharsets.UTF_8), randoms);
                randoms += placeholder.kind == Kind.RAND ? 1 : 0;
                segments.add(placeholder);
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
        return new Segment(Kind.LITERAL, bytes, 0, -1, null);
    }

    /** The placeholder written as {@code source}, "{{" and "}}" included; {@code randomRank} if it is random. */
    private static Segment placeholder(String source, int randomRank) {
        String name = source.substring(2, source.length() - 2).trim();
        switch (name) {
            case "seq":
                return new Segment(Kind.SEQ, null, 0, -1, source);
            case "conn":
                return new Segment(Kind.CONN, null, 0, -1, source);
            case "worker":
                return new Segment(Kind.WORKER, null, 0, -1, source);
            case "time_us":
                return new Segment(Kind.TIME_US, null, 0, -1, source);
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
                    return new Segment(Kind.RAND, null, n, randomRank, source);
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
        for (Segment s : placeholders) {
            if (s.kind == Kind.TIME_US) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether two requests of one connection may get different bytes: it has a {@code {{seq}}}, {@code {{time_us}}} or
     * {@code {{rand:N}}}. A template with only {@code {{conn}}} and {@code {{worker}}} is constant per connection.
     */
    public boolean variesPerRequest() {
        for (Segment s : placeholders) {
            if (s.kind != Kind.CONN && s.kind != Kind.WORKER) {
                return true;
            }
        }
        return false;
    }

    /** How many placeholders it has; a placeholder written twice counts twice. */
    public int placeholderCount() {
        return placeholders.length;
    }

    /** Placeholder {@code index} (from 0, in order) as it was written, braces included: {@code {{ seq }}}. */
    public String placeholderSource(int index) {
        return placeholders[index].source;
    }

    /**
     * Its text with placeholder {@code i} replaced by {@code replacement.apply(i)}, literals decoded as UTF-8: to build
     * a regular expression around the placeholders, say. Allocates; not for a request's path.
     */
    public String replacePlaceholders(IntFunction<String> replacement) {
        StringBuilder out = new StringBuilder();
        int p = 0;
        for (Segment s : segments) {
            out.append(s.kind == Kind.LITERAL ? new String(s.literal, StandardCharsets.UTF_8) : replacement.apply(p++));
        }
        return out.toString();
    }

    /** The most bytes it writes for any request: its literals, 20 digits per number, 2 hex digits per random byte. */
    public int maxLength() {
        long n = 0;
        for (Segment s : segments) {
            n += maxLength(s);
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    private static int maxLength(Segment s) {
        return switch (s.kind) {
            case LITERAL -> s.literal.length;
            case RAND -> 2 * s.randomBytes;
            default -> MAX_DECIMAL;
        };
    }

    /** Appends the bytes for {@code request} to {@code out}. */
    public void write(Context request, ByteBuf out) {
        if (constant != null) {
            out.writeBytes(constant);
            return;
        }
        for (Segment s : segments) {
            switch (s.kind) {
                case LITERAL -> out.writeBytes(s.literal);
                case SEQ -> writeDecimal(out, request.sequence());
                case CONN -> writeDecimal(out, request.connection());
                case WORKER -> writeDecimal(out, request.worker());
                case TIME_US -> writeDecimal(out, request.sendTimeMicros());
                case RAND -> writeRandom(out, randomState(request, s.randomRank), s.randomBytes);
            }
        }
    }

    /**
     * Writes the bytes for {@code request} into {@code into} from 0, growing it if need be; returns the array holding
     * them (the same one if they fit) and sets {@code length[0]} to their count. An array of {@link #maxLength} bytes
     * never grows.
     */
    public byte[] expand(Context request, byte[] into, int[] length) {
        int at = 0;
        byte[] dst = into;
        for (Segment s : segments) {
            int need = maxLength(s);
            if (at + need > dst.length) {
                dst = Arrays.copyOf(dst, Math.max(dst.length * 2, at + need));
            }
            if (s.kind == Kind.LITERAL) {
                System.arraycopy(s.literal, 0, dst, at, s.literal.length);
                at += s.literal.length;
            } else {
                at = putValue(s, request, dst, at);
            }
        }
        length[0] = at;
        return dst;
    }

    /**
     * Writes the value of placeholder {@code index} for {@code request} at {@code dst[at]}, as {@link #expand} would,
     * and returns where it ends. {@code dst} must have room: 20 bytes for a number, 2N for a {@code {{rand:N}}}; all the
     * values of a request together fit in {@link #maxLength} bytes.
     */
    public int putValue(int index, Context request, byte[] dst, int at) {
        return putValue(placeholders[index], request, dst, at);
    }

    private int putValue(Segment s, Context request, byte[] dst, int at) {
        return switch (s.kind) {
            case SEQ -> putDecimal(dst, at, request.sequence());
            case CONN -> putDecimal(dst, at, request.connection());
            case WORKER -> putDecimal(dst, at, request.worker());
            case TIME_US -> putDecimal(dst, at, request.sendTimeMicros());
            case RAND -> putRandom(dst, at, randomState(request, s.randomRank), s.randomBytes);
            case LITERAL -> throw new IllegalStateException("a literal has no value");
        };
    }

    /** The bytes for {@code request}, in an array of their own: for bytes made once per connection, say. */
    public byte[] bytesFor(Context request) {
        int[] length = new int[1];
        byte[] bytes = expand(request, new byte[maxLength()], length);
        return Arrays.copyOf(bytes, length[0]);
    }

    /** The text for {@code request}, as UTF-8: for templates inside JSON string values. */
    public String expandToString(Context request) {
        int[] length = new int[1];
        byte[] bytes = expand(request, new byte[Math.min(maxLength(), 4096)], length);
        return new String(bytes, 0, length[0], StandardCharsets.UTF_8);
    }

    /**
     * A state from the seed, the connection, the request and the placeholder's rank among the random ones (not its
     * position: an expected reply's first {@code {{rand:N}}} must repeat its request's first, wherever each stands).
     */
    private long randomState(Context request, int rank) {
        return mix(seed ^ mix(request.connection() * GOLDEN + request.sequence()) ^ (rank + 1) * 0xC2B2AE3D27D4EB4FL);
    }

    /** Random byte {@code b} is byte {@code b % 8} (little-endian) of {@code mix(state + (b / 8) * GOLDEN)}. */
    private static int putRandom(byte[] dst, int at, long state, int bytes) {
        for (int b = 0; b < bytes; b += 8) {
            long word = mix(state + (b >>> 3) * GOLDEN);
            int end = Math.min(bytes, b + 8);
            for (int i = b; i < end; i++, word >>>= 8) {
                int v = (int) word & 0xff;
                dst[at++] = HEX[v >>> 4];
                dst[at++] = HEX[v & 15];
            }
        }
        return at;
    }

    private static void writeRandom(ByteBuf out, long state, int bytes) {
        out.ensureWritable(2 * bytes);
        for (int b = 0; b < bytes; b += 8) {
            long word = mix(state + (b >>> 3) * GOLDEN);
            int end = Math.min(bytes, b + 8);
            for (int i = b; i < end; i++, word >>>= 8) {
                int v = (int) word & 0xff;
                out.writeByte(HEX[v >>> 4]);
                out.writeByte(HEX[v & 15]);
            }
        }
    }

    private static long mix(long z) {
        return Mixing.mix(z);
    }

    /**
     * Writes {@code v} in decimal at {@code dst[at]} and returns where it ends. The digit count comes first, from
     * comparisons, so the digits go in from the last with divisions by the constant 10 (multiplies, once compiled): no
     * division by a variable, nothing reversed or allocated. The magnitude is kept negative, as {@link Long#toString}
     * does, because {@code -Long.MIN_VALUE} does not fit a long.
     */
    private static int putDecimal(byte[] dst, int at, long v) {
        long negative = v;
        if (v < 0) {
            dst[at++] = '-';
        } else {
            negative = -v;
        }
        int end = at + digits(negative);
        for (int p = end - 1; p >= at; p--) {
            long q = negative / 10;
            dst[p] = (byte) ('0' + (q * 10 - negative));
            negative = q;
        }
        return end;
    }

    private static void writeDecimal(ByteBuf out, long v) {
        out.ensureWritable(MAX_DECIMAL);
        int at = out.writerIndex();
        long negative = v;
        if (v < 0) {
            out.setByte(at++, '-');
        } else {
            negative = -v;
        }
        int end = at + digits(negative);
        for (int p = end - 1; p >= at; p--) {
            long q = negative / 10;
            out.setByte(p, (int) ('0' + (q * 10 - negative)));
            negative = q;
        }
        out.writerIndex(end);
    }

    /** The number of decimal digits of {@code negative}, which is <= 0. */
    private static int digits(long negative) {
        long bound = -10;
        for (int d = 1; d < 19; d++) {
            if (negative > bound) {
                return d;
            }
            bound *= 10;
        }
        return 19;
    }
}
