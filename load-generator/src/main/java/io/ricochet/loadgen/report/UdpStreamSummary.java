package io.ricochet.loadgen.report;

/**
 * A UDP blast: datagrams sent and verified replies received, their rates, and loss = 1 − received/sent.
 * Loss is what UDP does under overload, so it is reported, not counted as an error; a reply that is not
 * the reversed request is bad.
 */
public record UdpStreamSummary(String command, String target, String io, int sockets, int size, double durationS,
        long sent, long received, long bad, double sentPps, double receivedPps, double receivedBytesPerS,
        double loss, ServerSummary server) {
}
