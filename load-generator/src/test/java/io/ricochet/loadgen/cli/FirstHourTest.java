package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rough edges a new user hit in the first hour, each shown fixed (FailureReasonsTest has the failed runs). */
class FirstHourTest {

    @Test
    void aSweepWithNothingToDoIsAUsageError() {
        Cli.Result below = Cli.run("sweep", "--max-size", "100");
        assertEquals(ExitCodes.USAGE, below.exit(), below.out());
        assertTrue(below.err().contains("nothing to sweep: --max-size 100 is below the first size step, 128"),
                below.err());
        assertFalse(below.out().contains("all steps verified"), below.out());

        Cli.Result none = Cli.run("sweep", "--no-sizes");
        assertEquals(ExitCodes.USAGE, none.exit(), none.out());
        assertTrue(none.err().contains("nothing to sweep: --no-sizes without --counts"), none.err());
    }

    @Test
    void theReportHelpOfSweepSaysWhatItWrites(@TempDir Path dir) throws Exception {
        Cli.Result help = Cli.run("sweep", "--help");
        assertTrue(help.out().replaceAll("\\s+", " ").contains("summary.json and report.html; and for a run measured "
                + "interval by interval (not sweep or ramp)"), help.out());
        Path report = dir.resolve("r");
        Cli.Result r = Cli.run("sweep", "--max-size", "128", "--requests-per-step", "10", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        try (Stream<Path> files = Files.list(report)) {
            assertEquals(Set.of("summary.json", "report.html"),
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
        }
    }

    @Test
    void registersCrossCheckSaysACycleIsFourRequests() {
        Cli.Result r = Cli.run("register", "--pairs", "2", "--cycles", "100");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("cross-check: server RPC requests grew by 400, client received 100 cycles of 4 "
                + "requests (register, call, unregister, call_missing) = 400"), r.out());
    }

    @Test
    void aScrapeUrlThatIsNotOneIsAUsageErrorNamingTheFlag() {
        Cli.Result r = Cli.run("echo", "--scrape", "notaurl", "--duration", "1s");
        assertEquals(ExitCodes.USAGE, r.exit(), r.out());
        assertTrue(r.err().contains("--scrape") && r.err().contains("'notaurl' (expected: an http:// or https:// URL"),
                r.err());
    }
}
