package io.ricochet.loadgen.scenario;

import java.time.Duration;

/**
 * How {@code udp-stream} sends ({@code udp_stream:} in a scenario file), and with {@code search} how it looks for
 * RFC 2544's zero-loss rate.
 *
 * <pre>{@code
 * UdpStreamSettings search = new UdpStreamSettings(4, Duration.ofMillis(500), true, 0.001, 0.02, 12);
 * }</pre>
 *
 * @param sockets   sending sockets
 * @param linger    how long to wait for replies after sending stops
 * @param search    search for the highest rate whose loss stays within {@code maxLoss}
 * @param maxLoss   the loss a passing trial may have, 0..1
 * @param precision stop when the highest passing and lowest failing rates are this close, as a share
 * @param maxTrials at most this many trials, the first included
 */
public record UdpStreamSettings(int sockets, Duration linger, boolean search, double maxLoss, double precision,
        int maxTrials) {
    /** The command line's defaults. */
    public static final UdpStreamSettings DEFAULTS = new UdpStreamSettings(1, Duration.ofMillis(500), false, 0.001,
            0.02, 12);

}
