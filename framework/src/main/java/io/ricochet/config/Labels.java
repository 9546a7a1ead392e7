package io.ricochet.config;

import java.util.Locale;

/**
 * Enum constants by their label, the lowercase name command lines and metric tags write ({@code io_uring},
 * {@code stream}), read back in any case.
 *
 * <pre>{@code
 * String tag = Labels.of(TransportKind.IO_URING);                  // "io_uring"
 * TransportKind kind = Labels.parse(TransportKind.values(), "EPOLL", "transport",
 *         "auto, io_uring, epoll or nio");                          // TransportKind.EPOLL
 * Labels.parse(TransportKind.values(), "kqueue", "transport", "auto, io_uring, epoll or nio");
 * // IllegalArgumentException: "transport: kqueue (expected: auto, io_uring, epoll or nio)"
 * }</pre>
 */
public final class Labels {
    private Labels() {
    }

    /** {@code constant}'s name in lowercase: {@code IO_URING} is {@code io_uring}. */
    public static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The constant of {@code constants} labelled {@code label}, in any case; else an {@link IllegalArgumentException}
     * reading {@code what: label (expected: expected)}.
     */
    public static <E extends Enum<E>> E parse(E[] constants, String label, String what, String expected) {
        for (E constant : constants) {
            if (of(constant).equalsIgnoreCase(label)) {
                return constant;
            }
        }
        throw new IllegalArgumentException(what + ": " + label + " (expected: " + expected + ")");
    }
}
