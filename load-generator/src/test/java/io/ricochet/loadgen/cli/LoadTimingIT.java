package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.transport.server.RicochetServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How long things take, against servers whose timing is known. Unit tests check the same kinds of run for
 * what holds on any machine; the bounds here depend on the machine keeping up, and are generous enough for a
 * loaded two-core runner. A lower bound that the server itself imposes cannot fail from load, only from a
 * measurement that leaves time out.
 */
@Timeout(120)
class LoadTimingIT {

    @Test
    void anOpenLoopRateGivesAboutThatManyRequests() {
        Cli.Result r = Cli.run("echo", "--duration", "1s", "--connections", "2", "--rate", "2000", "--json");
        assertEquals(0, r.exit(), r.err());
        long ok = r.json().get("ok").asLong();
        assertTrue(ok > 1000 && ok < 3000, "about 2000 requests in 1 s at 2000/s: " + ok);
    }

    @Test
    void aTwentyMillisecondServerShowsInTheMedian() {
        try (RicochetServer server = FaultyServers.start(FaultyServers.delay(20))) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--duration", "1s",
                    "--connections", "2", "--json");
            assertEquals(0, r.exit(), r.err());
            long p50 = r.json().get("latency_us").get("p50").asLong();
            assertTrue(p50 >= 20_000, "the server holds every reply 20 ms: " + r.out());
            assertTrue(p50 < 1_000_000, "and adds nothing near a second: " + r.out());
        }
    }

    @Test
    void aStallShowsInCorrectedLatencyButNotInServiceTime() {
        try (RicochetServer server = FaultyServers.start(FaultyServers.stallThreeHundredMsEverySecond())) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--duration", "3s",
                    "--connections", "4", "--rate", "2000", "--json");
            assertEquals(0, r.exit(), r.err());
            JsonNode s = r.json();
            long corrected = s.get("latency_us").get("p99").asLong();
            long service = s.get("service_latency_us").get("p99").asLong();
            assertTrue(corrected >= 150_000, "corrected p99 shows the 300 ms stall: " + corrected);
            // One request per connection waits out each stall: 12 of about 6,000, under the 1% the p99 leaves out.
            assertTrue(service < 150_000, "service p99 does not: " + service);
        }
    }

    /**
     * A step passes when its QPS is within 10% of its rate. Connecting, and spreading the connections' first
     * sends over one interval, cost a step a fixed share of time whatever its length, so half-second steps
     * missed on a loaded runner (443 QPS of 500): these steps are 2 s.
     */
    @Test
    void rampFindsAKneeAtOrAboveTheStartRate() {
        Cli.Result r = Cli.run("ramp", "--duration", "2s", "--warmup-step", "1s", "--start-rate", "500",
                "--max-rate", "2000", "--slo", "1s", "--refine", "0", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("knee_rate").asDouble() >= 500, "the embedded server keeps up with 500/s within 1 s: " + s);
    }
}
