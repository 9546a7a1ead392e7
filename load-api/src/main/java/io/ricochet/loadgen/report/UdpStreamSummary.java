package io.ricochet.loadgen.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.ricochet.loadgen.scrape.ServerSummary;

/**
 * A UDP blast: datagrams sent and verified replies received, their rates, and loss = 1 − received/sent.
 * Loss is what UDP does under overload, so it is reported, not counted as an error; a reply that is not
 * the reversed request is bad. {@code ratePps} is the rate asked for (0: as fast as it can), beside what was sent.
 */
public record UdpStreamSummary(String command, String target, String io, int sockets, int size, double durationS,
        double ratePps, long sent, long received, long bad, double sentPps, double receivedPps,
        double receivedBytesPerS, double loss, ServerSummary server, String firstBad) {

    /** Below this share of the rate asked, the run did not send what was asked, and says so. */
    public static final double RATE_SHORTFALL = 0.95;

    /**
     * {@code received} (verified replies) under the key every command uses. There is no {@code requests} or
     * {@code errors}: datagrams sent are {@code sent}, and one with no reply is {@code loss}, not an error.
     */
    @JsonProperty("ok")
    public long ok() {
        return received;
    }

    /** Whether it sent less than asked: the client, not the network, set the rate. */
    public boolean sentLessThanAsked() {
        return ratePps > 0 && sentPps < RATE_SHORTFALL * ratePps;
    }
}
