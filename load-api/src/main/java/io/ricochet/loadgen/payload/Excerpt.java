package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;

/**
 * Short printable quotes of bytes, for the reasons of bad replies: a reason lands in the summary's {@code first_bad},
 * one line that a user reads at a glance, so a quote keeps to {@value #MAX_CHARS} characters and escapes what a
 * terminal would not show. Printable ASCII and printable UTF-8 are kept; {@code "} and {@code \} are escaped, as are
 * {@code \n}, {@code \r} and {@code \t}; any other byte is {@code \xNN}. Allocates: for bad replies only.
 */
final class Excerpt {
    /** The most characters between a quote's quotation marks. */
    static final int MAX_CHARS = 40;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Excerpt() {
    }

    /**
     * Appends {@code reply}'s readable bytes quoted, from offset {@code from} on (leaving its indices alone); returns
     * how many bytes the quote shows.
     */
    static int quote(StringBuilder out, ByteBuf reply, int from) {
        int total = reply.readableBytes();
        // A character is at least one byte, and one more character may need three more to be whole.
        byte[] window = new byte[Math.max(0, Math.min(MAX_CHARS + 3, total - from))];
        reply.getBytes(reply.readerIndex() + from, window);
        return quote(out, window, 0, window.length, from, total);
    }

    /** Appends {@code bytes[from, length)} quoted; returns how many bytes the quote shows. */
    static int quote(StringBuilder out, byte[] bytes, int length, int from) {
        return quote(out, bytes, from, Math.min(length, from + MAX_CHARS + 3), from, length);
    }

    /** {@code bytes} quoted: {@code "value 17"}, or {@code "value 1"...} when they do not all fit. */
    static String quote(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        quote(out, bytes, bytes.length, 0);
        return out.toString();
    }

    /**
     * Appends {@code bytes[start, end)}, which are a message's bytes from offset {@code from} of {@code total}, quoted:
     * {@code ...} before the quote says it does not start at the message's first byte, and after it that the message
     * goes on. Returns how many bytes the quote shows.
     */
    private static int quote(StringBuilder out, byte[] bytes, int start, int end, int from, int total) {
        if (from > 0) {
            out.append("...");
        }
        out.append('"');
        int limit = out.length() + MAX_CHARS;
        int i = start;
        while (i < end) {
            int mark = out.length();
            int used = appendOne(out, bytes, i, end);
            if (out.length() > limit) {
                out.setLength(mark);
                break;
            }
            i += used;
        }
        out.append('"');
        int shown = i - start;
        if (from + shown < total) {
            out.append("...");
        }
        return shown;
    }

    /** Appends the character at {@code bytes[i]}, escaped if need be; returns how many bytes it took. */
    private static int appendOne(StringBuilder out, byte[] bytes, int i, int length) {
        int b = bytes[i] & 0xff;
        if (b < 0x80) {
            switch (b) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (b >= 0x20 && b < 0x7f) {
                        out.append((char) b);
                    } else {
                        hex(out, b);
                    }
                }
            }
            return 1;
        }
        int codePoint = decode(bytes, i, length);
        if (codePoint >= 0 && printable(codePoint)) {
            out.appendCodePoint(codePoint);
            return codePoint >= 0x10000 ? 4 : codePoint >= 0x800 ? 3 : 2;
        }
        hex(out, b);
        return 1;
    }

    private static void hex(StringBuilder out, int b) {
        out.append("\\x").append(HEX[b >>> 4]).append(HEX[b & 15]);
    }

    /** The code point of the well-formed UTF-8 sequence at {@code bytes[i]}, or -1. */
    private static int decode(byte[] bytes, int i, int length) {
        int b = bytes[i] & 0xff;
        int n;
        int min;
        int cp;
        if (b >= 0xc2 && b <= 0xdf) {
            n = 2;
            min = 0x80;
            cp = b & 0x1f;
        } else if (b >= 0xe0 && b <= 0xef) {
            n = 3;
            min = 0x800;
            cp = b & 0x0f;
        } else if (b >= 0xf0 && b <= 0xf4) {
            n = 4;
            min = 0x10000;
            cp = b & 0x07;
        } else {
            return -1;
        }
        if (i + n > length) {
            return -1;
        }
        for (int k = 1; k < n; k++) {
            int c = bytes[i + k] & 0xff;
            if ((c & 0xc0) != 0x80) {
                return -1;
            }
            cp = cp << 6 | c & 0x3f;
        }
        boolean surrogate = cp >= 0xd800 && cp <= 0xdfff;
        return cp < min || cp > Character.MAX_CODE_POINT || surrogate ? -1 : cp;
    }

    private static boolean printable(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.SURROGATE,
                    Character.PRIVATE_USE, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SPACE_SEPARATOR -> codePoint == ' ';
            default -> true;
        };
    }

    /**
     * {@code text} shown unquoted (a regular expression, say): control characters as {@code \xNN} or
     * {@code \\uNNNN}, and cut to {@link #MAX_CHARS} characters with {@code ...} after.
     */
    static String plain(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            if (out.length() >= MAX_CHARS) {
                return out.append("...").toString();
            }
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                hex(out, c);
            } else if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
