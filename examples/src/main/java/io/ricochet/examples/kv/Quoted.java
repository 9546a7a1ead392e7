package io.ricochet.examples.kv;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;

/**
 * Text from a peer, quoted for a message a person reads: in double quotes, {@code "} and {@code \} escaped, bytes
 * outside printable ASCII as {@code \xNN}, and cut after {@value #MAX_SHOWN} bytes, so a reply of any size or content
 * makes a short, one-line reason.
 */
final class Quoted {
    static final int MAX_SHOWN = 120;

    private Quoted() {
    }

    static String of(CharSequence text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_SHOWN) + 8).append('"');
        int shown = Math.min(text.length(), MAX_SHOWN);
        for (int i = 0; i < shown; i++) {
            append(out, text.charAt(i));
        }
        return close(out, text.length() - shown);
    }

    /** The readable bytes of {@code bytes}, its indices untouched. */
    static String of(ByteBuf bytes) {
        int length = bytes.readableBytes();
        int shown = Math.min(length, MAX_SHOWN);
        StringBuilder out = new StringBuilder(shown + 8).append('"');
        for (int i = 0; i < shown; i++) {
            append(out, bytes.getUnsignedByte(bytes.readerIndex() + i));
        }
        return close(out, length - shown);
    }

    static String of(ByteString bytes) {
        int shown = Math.min(bytes.size(), MAX_SHOWN);
        StringBuilder out = new StringBuilder(shown + 8).append('"');
        for (int i = 0; i < shown; i++) {
            append(out, bytes.byteAt(i) & 0xff);
        }
        return close(out, bytes.size() - shown);
    }

    private static void append(StringBuilder out, int c) {
        if (c == '"' || c == '\\') {
            out.append('\\').append((char) c);
        } else if (c >= 0x20 && c < 0x7f) {
            out.append((char) c);
        } else if (c <= 0xff) {
            out.append(String.format("\\x%02x", c));
        } else {
            out.append(String.format("\\u%04x", c));
        }
    }

    private static String close(StringBuilder out, int more) {
        out.append('"');
        if (more > 0) {
            out.append("... (").append(more).append(" more)");
        }
        return out.toString();
    }
}
