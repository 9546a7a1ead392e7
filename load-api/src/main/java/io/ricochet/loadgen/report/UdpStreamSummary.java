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

    /** {@code sent} under the key every command uses ({@code sent} stays, as what UDP calls it). */
    @JsonProperty("requests")
    public long requests() {
        return sent;
    }

    /** {@code received} (verified replies) under the key every command uses. */
    @JsonProperty("ok")
    public long ok() {
        return received;
    }

    /** Always 0: a datagram with no reply is {@code loss}, which UDP has under overload, not an error. */
    @JsonProperty("errors")
    public long errors() {
        return 0;
    }

    /** Whether it sent less than asked: the client, not the network, set the rate. */
    public boolean sentLessThanAsked() {
        return ratePps > 0 && sentPps < RATE_SHORTFALL * ratePps;
    }
}
