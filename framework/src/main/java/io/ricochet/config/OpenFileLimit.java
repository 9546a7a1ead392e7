package io.ricochet.config;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The process's open-file limit ({@code RLIMIT_NOFILE}) and the share of it connections may take.
 * Every accepted connection is a file descriptor; once they are gone, {@code accept} fails on every
 * port of the process, its metrics and health ports included. Capping connections below the limit
 * turns that into refusing new connections on the port that is full.
 */
public final class OpenFileLimit {
    /** Descriptors kept for everything that is not a connection: jars, event loops, listeners, metrics, logs. */
    static final int MAX_RESERVE = 1024;

    private OpenFileLimit() {
    }

    /** The soft limit the JVM runs with (it raises it to the hard limit at start), or -1 where it cannot be read. */
    public static long current() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /** Connections the process may hold at once: {@link #connectionCap(long)} of the current limit. */
    public static int connectionCap() {
        return connectionCap(current());
    }

    /**
     * {@code limit} less a reserve of an eighth of it, at most {@value #MAX_RESERVE}: 18,976 of 20,000,
     * 896 of 1,024. Unlimited ({@link Integer#MAX_VALUE}) when the limit is unknown.
     */
    public static int connectionCap(long limit) {
        if (limit <= 0) {
            return Integer.MAX_VALUE;
        }
        long cap = limit - Math.min(MAX_RESERVE, Math.max(1, limit / 8));
        return (int) Math.min(Integer.MAX_VALUE, cap);
    }
}
