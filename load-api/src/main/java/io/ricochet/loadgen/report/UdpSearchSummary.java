package io.ricochet.loadgen.report;

import java.util.List;

/**
 * A zero-loss rate search ({@code udp-stream --search}): every trial, and the highest rate whose loss stayed within
 * {@code maxLoss}, null if none did. {@code clientLimited}: the first trial, as fast as the client could send, already
 * passed, so the rate found is the client's limit and the server's is higher.
 */
public record UdpSearchSummary(String command, String target, String io, int sockets, int size, double maxLoss,
        double precision, List<UdpStreamSummary> trials, Double zeroLossPps, Double zeroLossBytesPerS,
        boolean clientLimited, String verdict) {

    public UdpSearchSummary {
        trials = List.copyOf(trials);
    }
}
