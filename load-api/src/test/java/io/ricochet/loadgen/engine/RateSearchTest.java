package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.config.InvalidValueException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one rate search, against modelled servers of known capacity: no sockets, so the answer is exact. Bracketing down
 * from an unlimited trial is udp-stream's zero-loss search; bracketing up from a start rate is ramp's knee.
 */
class RateSearchTest {
    private static final double TRIAL_SECONDS = 2;
    private static final double MAX_LOSS = 0.001;
    /** Below this share of the rate asked, a trial did not offer the rate it stands for. */
    private static final double SHORTFALL = 0.95;

    /** What a modelled UDP trial sent and lost. */
    private record Udp(double rate, double sentPps, double loss) {
    }

    /**
     * A server that answers up to {@code capacity} datagrams/s and drops the rest, and {@code floorLoss} of all it
     * gets, fed by a client that sends at most {@code clientMax}/s; a trial passes as udp-stream judges one.
     */
    private static RateSearch.Trial<Udp> server(double capacity, double clientMax, double floorLoss, List<Double> asked) {
        return rate -> {
            asked.add(rate);
            double sentPps = rate == 0 ? clientMax : Math.min(rate, clientMax);
            long sent = (long) (sentPps * TRIAL_SECONDS);
            long received = (long) (Math.min(sentPps, capacity) * TRIAL_SECONDS * (1 - floorLoss));
            Udp t = new Udp(rate, sentPps, 1 - (double) received / sent);
            boolean offered = rate == 0 || sentPps >= SHORTFALL * rate;
            return new RateSearch.Outcome<>(t, offered && t.loss() <= MAX_LOSS, sentPps);
        };
    }

    private static RateSearch zeroLoss(int maxTrials) {
        return RateSearch.fromUnlimited().precision(0.02).maxTrials(maxTrials);
    }

    @Test
    void convergesOnTheServersCapacityFromBelow() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Udp> r = zeroLoss(12).run(server(100_000, 300_000, 0, asked), () -> false);
        assertEquals(0.0, asked.get(0), "the first trial is unlimited");
        assertFalse(r.clientLimited());
        double found = r.best().rate();
        assertTrue(found <= 100_000 * 1.001 && found >= 100_000 * 0.96, "found " + found);
        assertTrue(r.best().outcome().passed());
        assertTrue(r.steps().size() < 12, "converged before the trials ran out: " + asked);
        assertEquals(asked.size(), r.steps().size());
    }

    @Test
    void aClientSlowerThanTheServerEndsAfterOneTrialAndSaysSo() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Udp> r = zeroLoss(12).run(server(500_000, 200_000, 0, asked), () -> false);
        assertEquals(List.of(0.0), asked);
        assertTrue(r.clientLimited());
        assertEquals(200_000, r.best().outcome().result().sentPps());
    }

    @Test
    void lossAtEveryRateFindsNothingWithinTheTrials() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Udp> r = zeroLoss(6).run(server(100_000, 300_000, 0.01, asked), () -> false);
        assertNull(r.best());
        assertEquals(6, asked.size());
    }

    @Test
    void aTrialThatCouldNotSendTheRateFailsThoughItLostNothing() throws InterruptedException {
        // Asked for a rate, this client keeps at most 80,000/s: a trial above that offered less than it stands for.
        List<Double> asked = new ArrayList<>();
        RateSearch.Trial<Udp> lagging = rate -> {
            RateSearch.Outcome<Udp> t = server(100_000, 300_000, 0, asked).run(rate);
            if (rate == 0 || t.result().sentPps() <= 80_000) {
                return t;
            }
            return new RateSearch.Outcome<>(new Udp(rate, 80_000, 0), 80_000 >= SHORTFALL * rate, 80_000);
        };
        RateSearch.Result<Udp> r = zeroLoss(12).run(lagging, () -> false);
        assertFalse(r.clientLimited());
        assertTrue(r.best().rate() <= 80_000 / SHORTFALL, "found " + r.best().rate());
        assertFalse(lagging.run(90_000).passed(), "no loss, but 80,000/s sent of 90,000 asked");
    }

    @Test
    void aStopEndsTheSearchBeforeTheNextTrial() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Udp> r = zeroLoss(12).run(server(100_000, 300_000, 0, asked), () -> asked.size() >= 3);
        assertEquals(3, r.steps().size());
        assertTrue(r.stopped());
    }

    /** A server whose p99 stays under the SLO up to {@code knee} requests/s; above, it misses. */
    private static RateSearch.Trial<Double> knee(double knee, List<Double> asked) {
        return rate -> {
            asked.add(rate);
            return new RateSearch.Outcome<>(rate, rate <= knee, rate);
        };
    }

    @Test
    void growingDoublesUntilAMissThenBisectsAsManyStepsAsAsked() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Double> r = RateSearch.growingFrom(1_000, 2, 10_000_000).bisections(3)
                .run(knee(5_000, asked), () -> false);
        // 1k, 2k, 4k pass, 8k misses; then 6k (miss), 5k (pass), 5.5k (miss).
        assertEquals(List.of(1_000.0, 2_000.0, 4_000.0, 8_000.0, 6_000.0, 5_000.0, 5_500.0), asked);
        assertEquals(5_000.0, r.best().rate());
        assertEquals(5_500.0, r.firstFailed());
        assertFalse(r.reachedMax());
    }

    @Test
    void growingPastTheMaximumSaysEveryRatePassed() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Double> r = RateSearch.growingFrom(1_000, 2, 4_000).bisections(3)
                .run(knee(1e9, asked), () -> false);
        assertEquals(List.of(1_000.0, 2_000.0, 4_000.0), asked);
        assertTrue(r.reachedMax());
        assertEquals(4_000.0, r.best().rate());
    }

    @Test
    void aFirstRateThatMissesFindsNothingAndDoesNotBisect() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Double> r = RateSearch.growingFrom(1_000, 2, 1e7).bisections(3).run(knee(10, asked),
                () -> false);
        assertEquals(List.of(1_000.0), asked);
        assertNull(r.best());
    }

    @Test
    void aTrialCutShortByAStopIsKeptButNotJudged() throws InterruptedException {
        List<Double> asked = new ArrayList<>();
        RateSearch.Result<Double> r = RateSearch.growingFrom(1_000, 2, 1e7).bisections(3)
                .run(knee(5_000, asked), () -> asked.size() >= 2);
        assertEquals(2, r.steps().size());
        assertTrue(r.steps().get(1).cutShort());
        assertEquals(1_000.0, r.best().rate(), "the cut-short 2,000/s trial says nothing about its rate");
        assertTrue(r.stopped());
    }

    @Test
    void boundsAreValidatedByName() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> RateSearch.growingFrom(0, 2, 1));
        assertEquals("startRate", e.field());
        e = assertThrows(InvalidValueException.class, () -> RateSearch.growingFrom(1, 1, 1));
        assertEquals("factor", e.field());
    }
}
