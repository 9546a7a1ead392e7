package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One connection's matching of replies against a {@link Regex}: the reply is decoded as UTF-8 (malformed bytes as
 * U+FFFD) into a char array of the connection's, which one reused {@link Matcher} reads, so a reply allocates nothing
 * unless the pattern must be compiled per reply (see {@link Regex}). Checks are pure: the arrays are written before
 * they are read within one check.
 */
final class RegexCheck implements ReplyCheck {
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private final Regex regex;
    private final Template template;
    private final Chars text = new Chars();
    /** Null when the pattern is compiled per reply. */
    private final Matcher matcher;
    private final boolean captured;
    private byte[] bytes = new byte[64];
    private final byte[] values;
    private CharsetDecoder decoder;
    private ByteBuffer bytesView;
    private CharBuffer charsView;

    RegexCheck(Regex regex, Context connection) {
        this.regex = regex;
        this.template = regex.template();
        Pattern pattern = regex.fixed() != null ? regex.fixed()
                : regex.captured() != null ? regex.captured()
                : template.variesPerRequest() ? null
                : regex.compile(connection);
        this.captured = regex.captured() != null;
        this.matcher = pattern == null ? null : pattern.matcher(text);
        if (captured) {
            // The values before the region must be visible to the lookbehind that captures them.
            matcher.useTransparentBounds(true);
        }
        this.values = captured ? new byte[template.maxLength()] : null;
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        int start = captured ? putValues(request) : 0;
        int end = decode(reply, start);
        text.length = end;
        boolean found;
        try {
            if (captured) {
                found = matcher.reset(text).region(start, end).lookingAt();
            } else if (matcher != null) {
                found = matcher.reset(text).find();
            } else {
                found = regex.compile(request).matcher(text).find();
            }
        } catch (StackOverflowError e) {
            // java.util.regex recurses per repetition of some groups; a long reply can exhaust the stack. An error of
            // this request, not a bad reply, and not an Error that would take the event loop down.
            throw new IllegalStateException("regex " + Excerpt.plain(regex.toString()) + " overflowed the stack on a "
                    + reply.readableBytes() + "-byte reply");
        }
        return found ? Check.ok() : Check.bad(regex.reason(request, reply));
    }

    /** Puts the request's values, each followed by {@link Regex#SEPARATOR}, at the start of the text; returns the end. */
    private int putValues(Context request) {
        int at = 0;
        int count = template.placeholderCount();
        text.ensure(template.maxLength() + count);
        char[] chars = text.chars;
        for (int i = 0; i < count; i++) {
            int n = template.putValue(i, request, values, 0);
            for (int j = 0; j < n; j++) {
                chars[at++] = (char) values[j];
            }
            chars[at++] = Regex.SEPARATOR;
        }
        return at;
    }

    /** Decodes the reply into the text from {@code start}; returns where it ends. */
    private int decode(ByteBuf reply, int start) {
        int n = reply.readableBytes();
        if (bytes.length < n) {
            bytes = new byte[Math.max(n, 2 * bytes.length)];
        }
        reply.getBytes(reply.readerIndex(), bytes, 0, n);
        // UTF-8 never takes more chars than bytes.
        text.ensure(start + n);
        if (!ascii(bytes, n)) {
            return decodeUtf8(n, start);
        }
        // ASCII takes one char each, widened in a loop the JIT vectorizes.
        char[] chars = text.chars;
        for (int i = 0; i < n; i++) {
            chars[start + i] = (char) bytes[i];
        }
        return start + n;
    }

    /** Whether {@code bytes[0, n)} are all ASCII: eight at a time, their high bits together. */
    private static boolean ascii(byte[] bytes, int n) {
        int full = n & ~7;
        long high = 0;
        for (int i = 0; i < full; i += 8) {
            high |= (long) LONGS.get(bytes, i);
        }
        for (int i = full; i < n; i++) {
            high |= bytes[i];
        }
        return (high & 0x8080808080808080L) == 0;
    }

    /** The general case, for replies that are not all ASCII; the views are made again only when an array grows. */
    private int decodeUtf8(int n, int start) {
        if (decoder == null) {
            decoder = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
        }
        if (bytesView == null || bytesView.array() != bytes) {
            bytesView = ByteBuffer.wrap(bytes);
        }
        if (charsView == null || charsView.array() != text.chars) {
            charsView = CharBuffer.wrap(text.chars);
        }
        bytesView.clear().limit(n);
        charsView.clear().position(start);
        decoder.reset();
        decoder.decode(bytesView, charsView, true);
        decoder.flush(charsView);
        return charsView.position();
    }

    /** The text a matcher reads: a growable char array, read in place. */
    private static final class Chars implements CharSequence {
        char[] chars = new char[64];
        int length;

        void ensure(int capacity) {
            if (chars.length < capacity) {
                chars = Arrays.copyOf(chars, Math.max(capacity, 2 * chars.length));
            }
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return chars[Objects.checkIndex(index, length)];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            Objects.checkFromToIndex(start, end, length);
            return new String(chars, start, end - start);
        }

        @Override
        public String toString() {
            return new String(chars, 0, length);
        }
    }
}
