package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.commandline.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The capacity plan: printed by plan, and made by every run before it sends anything. */
@Timeout(60)
class PlanCommandTest {
    /** More connections than any ephemeral port range holds for one (source, target) pair. */
    private static final String TOO_MANY = "3M";
    private static final String PORTS_REFUSAL = "ports: 3,000,000 connections per target from this machine's one "
            + "source address, but the ephemeral range has ";

    @Test
    void planPrintsTheSumsAndSaysTheRunFits() {
        Cli.Result r = Cli.run("plan", "--workers", "6", "massive", "--target", "127.0.0.1:7000", "--connections",
                "100k", "--source-addresses", "127.0.0.2-127.0.0.13", "--connect-rate", "5000", "--warmup", "60s",
                "--duration", "30s");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.out().startsWith("connections: 100,000 over 6 worker(s), 16,667 at most, to 1 target(s)\n"
                + "ports: 8,334 per source address (12 given), of "), r.out());
        assertTrue(r.out().contains("\nconnect time: 20.0 s at 5,000/s, in a run of 90.0 s\n"), r.out());
        assertTrue(r.out().endsWith("fits\n"), r.out());
    }

    @Test
    void planNamesTheLimitARunBreaks() {
        Cli.Result r = Cli.run("plan", "--workers", "1", "massive", "--target", "127.0.0.1:7000", "--connections",
                TOO_MANY);
        assertEquals(ExitCodes.FAILURE, r.exit(), r.err());
        assertTrue(r.out().contains("\nrefused: " + PORTS_REFUSAL), r.out());
    }

    @Test
    void theControllerRefusesBeforeStartingAnything() {
        Cli.Result r = Cli.run("controller", "--workers", "2", "massive", "--target", "127.0.0.1:1", "--connections",
                TOO_MANY);
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertTrue(r.err().contains("load-generator: refused before sending anything: " + PORTS_REFUSAL), r.err());
        assertTrue(!r.err().contains("workers launched"), r.err());
    }

    @Test
    void aSingleRunIsPlannedToo() {
        Cli.Result r = Cli.run("massive", "--target", "127.0.0.1:1", "--connections", TOO_MANY);
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("load-generator: refused before sending anything: " + PORTS_REFUSAL), r.err());
    }

    @Test
    void aRampLongerThanTheRunIsRefusedForTheWholeRun() {
        Cli.Result r = Cli.run("plan", "--workers", "2", "massive", "--target", "127.0.0.1:7000", "--connections",
                "10k", "--connect-rate", "100", "--warmup", "5s", "--duration", "10s");
        assertEquals(ExitCodes.FAILURE, r.exit(), r.err());
        assertTrue(r.out().endsWith("refused: connect time: 10,000 connections at 100/s take 100.0 s, longer than "
                + "the run's 15.0 s (raise --connect-rate, --warmup or --duration)\n"), r.out());
    }
}
