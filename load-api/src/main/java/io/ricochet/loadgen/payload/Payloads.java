package io.ricochet.loadgen.payload;

import io.ricochet.loadgen.files.InputFiles;

/**
 * Reads the value of {@code --payload} (and of {@code --expect equals:}) into a {@link Template}:
 *
 * <ul>
 *   <li>{@code TEXT}: its UTF-8 bytes, placeholders filled in per request ({@code 'get key-{{seq}}'});</li>
 *   <li>{@code @FILE}: the file's bytes, at most {@value #MAX_FILE_BYTES} of them, placeholders filled in as in text
 *       ({@code @request.bin});</li>
 *   <li>{@code hex:HEX}: the bytes the hex digits spell, two digits a byte, as they are ({@code hex:00ff10}).</li>
 * </ul>
 *
 * A text that starts with {@code @} or {@code hex:} is sent from a file. The protocol has no empty frames, so an empty
 * payload is an error. Errors are IllegalArgumentExceptions whose message does not name the flag (the caller does):
 *
 * <pre>{@code
 * Template get = Payloads.parse("get key-{{seq}}", seed);
 * Template ping = Payloads.parse("hex:0001", seed);
 * Payloads.parse("hex:0g", seed); // IllegalArgumentException: hex: 'g' at index 1 (expected: 0-9, a-f or A-F)
 * }</pre>
 */
public final class Payloads {
    /** The largest file a payload or an expected reply is read from: 16 MiB. */
    public static final int MAX_FILE_BYTES = 16 << 20;

    private Payloads() {
    }

    /**
     * The template {@code arg} describes.
     *
     * @param seed the run's seed, from which {@code {{rand:N}}} derives its bytes
     */
    public static Template parse(String arg, long seed) {
        if (arg.startsWith("@")) {
            String path = arg.substring(1);
            byte[] bytes = read(path);
            try {
                return Template.parse(bytes, seed);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(arg + ": " + e.getMessage(), e);
            }
        }
        if (arg.startsWith("hex:")) {
            return Template.literalOf(hex(arg.substring(4)));
        }
        if (arg.isEmpty()) {
            throw new IllegalArgumentException("empty (expected: at least one byte; frames are never empty)");
        }
        return Template.parse(arg, seed);
    }

    /** The bytes of the file at {@code path}: not empty, at most {@value #MAX_FILE_BYTES}. */
    static byte[] read(String path) {
        String name = "@" + path;
        if (path.isEmpty()) {
            throw new IllegalArgumentException("@: no file named (expected: @FILE)");
        }
        byte[] bytes;
        try {
            bytes = InputFiles.read(InputFiles.path(path), MAX_FILE_BYTES);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("@" + e.getMessage(), e);
        }
        if (bytes.length == 0) {
            throw new IllegalArgumentException(name + ": empty file (expected: at least one byte; frames are never "
                    + "empty)");
        }
        return bytes;
    }

    /** The bytes {@code digits} spell, two a byte; an error names the first bad digit's index, from 0. */
    static byte[] hex(String digits) {
        for (int i = 0; i < digits.length(); i++) {
            if (hexValue(digits.charAt(i)) < 0) {
                throw new IllegalArgumentException("hex: " + shown(digits.charAt(i)) + " at index " + i
                        + " (expected: 0-9, a-f or A-F)");
            }
        }
        if (digits.isEmpty()) {
            throw new IllegalArgumentException("hex: no digits (expected: at least one byte; frames are never empty)");
        }
        if (digits.length() % 2 != 0) {
            throw new IllegalArgumentException("hex: " + digits.length() + " digits (expected: an even number, two a "
                    + "byte)");
        }
        byte[] bytes = new byte[digits.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (hexValue(digits.charAt(2 * i)) << 4 | hexValue(digits.charAt(2 * i + 1)));
        }
        return bytes;
    }

    /** The value of an ASCII hex digit, or -1 (Character.digit would take other scripts' digits too). */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** A character as an error shows it: {@code 'g'}, or {@code U+0009} when it does not print. */
    private static String shown(char c) {
        return c > 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
    }
}
