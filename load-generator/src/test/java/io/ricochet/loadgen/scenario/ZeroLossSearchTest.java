package io.ricochet.loadgen.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.report.UdpStreamSummary;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search against modelled servers of known capacity: no sockets, so the answer is exact. */
class ZeroLossSearchTest {
    private static final double TRIAL_SECONDS = 2;

    /**
     * A server that answers up to {@code capacity} datagrams/s and drops the rest, and {@code floorLoss} of all it
     * gets, fed by a client that sends at most {@code clientMax}/s.
     */
    private static ZeroLossSearch.Trial server(double capacity, double clientMax, double floorLoss, List<Double> asked) {
        return rate -> {
            asked.add(rate);
            double sentPps = rate == 0 ? clientMax : Math.min(rate, clientMax);
            long sent = (long) (sentPps * TRIAL_SECONDS);
            long received = (long) (Math.min(sentPps, capacity) * TRIAL_SECONDS * (1 - floorLoss));
            return new UdpStreamSummary("udp-stream", "127.0.0.1:7000", "epoll", 1, 1, TRIAL_SECONDS, rate, sent,
                    received, 0, sentPps, received / TRIAL_SECONDS, received / TRIAL_SECONDS, 1 - (double) received / sent,
                    null);
        };
    }

    @Test
    void convergesOnTheServersCapacityFromBelow() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        ZeroLossSearch search = new ZeroLossSearch(0.001, 0.02, 12);
        ZeroLossSearch.Result r = search.run(server(100_000, 300_000, 0, asked), () -> false);
        assertEquals(0.0, asked.get(0), "the first trial is unlimited");
        assertFalse(r.clientLimited());
        double found = r.best().ratePps();
        assertTrue(found <= 100_000 * 1.001 && found >= 100_000 * 0.96, "found " + found);
        assertTrue(search.passes(r.best()));
        assertTrue(r.trials().size() < 12, "converged before the trials ran out: " + asked);
        assertEquals(asked.size(), r.trials().size());
    }

    @Test
    void aClientSlowerThanTheServerEndsAfterOneTrialAndSaysSo() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        ZeroLossSearch.Result r = new ZeroLossSearch(0.001, 0.02, 12).run(server(500_000, 200_000, 0, asked),
                () -> false);
        assertEquals(List.of(0.0), asked);
        assertTrue(r.clientLimited());
        assertEquals(200_000, r.best().sentPps());
    }

    @Test
    void lossAtEveryRateFindsNothingWithinTheTrials() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        ZeroLossSearch.Result r = new ZeroLossSearch(0.001, 0.02, 6).run(server(100_000, 300_000, 0.01, asked),
                () -> false);
        assertNull(r.best());
        assertEquals(6, asked.size());
    }

    @Test
    void aTrialThatCouldNotSendTheRateFailsThoughItLostNothing() throws InterruptedException {
        // Asked for a rate, this client keeps at most 80,000/s: a trial above that offered less than it stands for.
        List<Double> asked = new ArrayList<>();
        ZeroLossSearch.Trial lagging = rate -> {
            UdpStreamSummary t = server(100_000, 300_000, 0, asked).run(rate);
            if (rate == 0 || t.sentPps() <= 80_000) {
                return t;
            }
            long sent = (long) (80_000 * TRIAL_SECONDS);
            return new UdpStreamSummary("udp-stream", t.target(), t.io(), 1, 1, TRIAL_SECONDS, rate, sent, sent, 0,
                    80_000, 80_000, 80_000, 0, null);
        };
        ZeroLossSearch search = new ZeroLossSearch(0.001, 0.02, 12);
        ZeroLossSearch.Result r = search.run(lagging, () -> false);
        assertFalse(r.clientLimited());
        assertTrue(r.best().ratePps() <= 80_000 / UdpStreamSummary.RATE_SHORTFALL, "found " + r.best().ratePps());
        assertFalse(search.passes(lagging.run(90_000)), "no loss, but 80,000/s sent of 90,000 asked");
    }

    @Test
    void aStopEndsTheSearchBeforeTheNextTrial() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        ZeroLossSearch.Result r = new ZeroLossSearch(0.001, 0.02, 12).run(server(100_000, 300_000, 0, asked),
                () -> asked.size() >= 3);
        assertEquals(3, r.trials().size());
    }

    @Test
    void boundsAreValidatedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ZeroLossSearch(2, 0.02, 12));
        assertEquals("maxLoss: 2.0 (expected: 0.0..1.0)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ZeroLossSearch(0.001, 0.02, 1));
        assertEquals("maxTrials: 1 (expected: 2..100)", e.getMessage());
    }
}
