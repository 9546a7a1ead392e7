package io.ricochet.config;

/** Which I/O implementation runs the event loops. {@link #AUTO} picks epoll, then io_uring, then NIO (see {@code IoTransport}). */
public enum TransportKind {
    AUTO, IO_URING, EPOLL, NIO;

    /** The lowercase name used on command lines and in metric tags: {@code io_uring}, {@code epoll}, {@code nio}. */
    public String label() {
        return Labels.of(this);
    }

    public static TransportKind fromLabel(String label) {
        return Labels.parse(values(), label, "transport", "auto, io_uring, epoll or nio");
    }
}
