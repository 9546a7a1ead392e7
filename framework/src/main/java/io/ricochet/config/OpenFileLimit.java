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
    /**
     * Descriptors a {@link #budget} keeps beyond those open when it is made and the metrics port's: the listeners,
     * the metrics port's own loop, a connection accepted only to be closed at the cap, a file read while serving.
     */
    static final int SPARE = 64;

    private OpenFileLimit() {
    }

    /** The soft limit the JVM runs with (it raises it to the hard limit at start), or -1 where it cannot be read. */
    public static long current() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /** Descriptors the process has open now, or -1 where that cannot be read. */
    public static long open() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : -1;
    }

    /**
     * How a server process shares its descriptors, made once its event loops exist and before it listens.
     *
     * <pre>{@code
     * OpenFileLimit.Budget budget = OpenFileLimit.budget(MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS);
     * ConnectionBudget shared = new ConnectionBudget(budget.connections());
     * System.out.println(budget.describe());
     * }</pre>
     *
     * @param metricsConnections the metrics port's cap on its connections, 0 without one: its {@code /health} must
     *                           still be answered when every connection the budget allows is open
     */
    public static Budget budget(int metricsConnections) {
        return budget(current(), open(), metricsConnections);
    }

    /** {@link #budget(int)} for a process with {@code limit} descriptors, {@code open} of them open now. */
    public static Budget budget(long limit, long open, int metricsConnections) {
        if (limit <= 0) {
            return new Budget(limit, open, metricsConnections, Integer.MAX_VALUE);
        }
        long needed = Math.max(0, open) + metricsConnections + SPARE;
        long kept = Math.max(limit - connectionCap(limit), needed);
        return new Budget(limit, open, metricsConnections, (int) Math.max(1, Math.min(Integer.MAX_VALUE, limit - kept)));
    }

    /**
     * The connections a server process may hold over all its TCP ports: its open-file limit less what it keeps, the
     * larger of {@link #connectionCap(long)}'s reserve and what is open, the metrics port's connections and
     * {@value #SPARE} spare.
     *
     * @param limit       the open-file limit, or -1 if unknown (then connections are not capped)
     * @param open        the descriptors open when the budget was made
     * @param metrics     the metrics port's cap on its connections
     * @param connections the connections allowed over all TCP ports, at least 1
     */
    public record Budget(long limit, long open, int metrics, int connections) {
        /** One line for a server's startup: what was chosen, and from what. */
        public String describe() {
            if (limit <= 0) {
                return "connections: not capped (the open-file limit cannot be read here)";
            }
            return String.format(java.util.Locale.ROOT, "connections: at most %,d over all TCP ports (open-file limit "
                    + "%,d, kept %,d: %d open now, %d for the metrics port, %d spare)", connections, limit,
                    limit - connections, open, metrics, SPARE);
        }
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
