package io.ricochet.config;

import java.util.Locale;

/** Which I/O implementation runs the event loops. {@link #AUTO} picks epoll, then io_uring, then NIO (see {@code IoTransport}). */
public enum TransportKind {
    AUTO, IO_URING, EPOLL, NIO;

    /** The lowercase name used on command lines and in metric tags: {@code io_uring}, {@code epoll}, {@code nio}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TransportKind fromLabel(String label) {
        for (TransportKind kind : values()) {
            if (kind.label().equalsIgnoreCase(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("transport: " + label + " (expected: auto, io_uring, epoll or nio)");
    }
}
