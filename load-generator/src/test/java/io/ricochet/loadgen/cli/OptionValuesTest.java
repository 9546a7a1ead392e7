package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.commandline.ExitCodes;
import java.time.Duration;
import java.util.List;
import io.ricochet.loadgen.scenario.SizeRange;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/** Counts take decimal suffixes, sizes binary ones, durations compounds: parsed only, nothing runs. */
class OptionValuesTest {

    private static ParseResult parse(String... args) {
        return LoadGeneratorMain.newCommandLine().parseArgs(args).subcommand();
    }

    @Test
    void countsAndRatesTakeDecimalSuffixes() {
        ParseResult echo = parse("echo", "--connections", "1.5k", "--rate", "10k/s", "--pipeline", "1K");
        assertEquals(1500, echo.matchedOptionValue("--connections", 0));
        assertEquals(10_000.0, echo.matchedOptionValue("--rate", 0.0));
        assertEquals(1000, echo.matchedOptionValue("--pipeline", 0));
        assertEquals(1000.0, parse("echo", "--rate", "1k").matchedOptionValue("--rate", 0.0));
        assertEquals(2_000_000 / 60.0, parse("echo", "--rate", "2M/m").matchedOptionValue("--rate", 0.0), 1e-9);
        assertEquals(0.04, parse("massive", "--per-connection-rate", "0.04/s").matchedOptionValue("--per-connection-rate", 0.0));
        ParseResult rpc = parse("rpc", "--requests", "10k", "--clients", "1k", "--warmup", "2k", "--in-flight", "16");
        assertEquals(10_000L, rpc.matchedOptionValue("--requests", 0L));
        assertEquals(1000, rpc.matchedOptionValue("--clients", 0));
        assertEquals(2000L, rpc.matchedOptionValue("--warmup", 0L));
        assertEquals(16, rpc.matchedOptionValue("--in-flight", 0));
        ParseResult register = parse("register", "--pairs", "1k", "--cycles", "1M");
        assertEquals(1000, register.matchedOptionValue("--pairs", 0));
        assertEquals(1_000_000L, register.matchedOptionValue("--cycles", 0L));
        assertEquals(5000, parse("crr", "--concurrency", "5k").matchedOptionValue("--concurrency", 0));
        assertEquals(2000, parse("udp-stream", "--sockets", "2k").matchedOptionValue("--sockets", 0));
    }

    @Test
    void sizesTakeBinaryUnits() {
        assertEquals(new SizeRange(1024, 1024), parse("echo", "--size", "1k").matchedOptionValue("--size", null));
        assertEquals(new SizeRange(1 << 20, 1 << 20), parse("echo", "--size", "1MB").matchedOptionValue("--size", null));
        assertEquals(new SizeRange(1024, 4096), parse("rr", "--size", "1k..4KiB").matchedOptionValue("--size", null));
        assertEquals(64, parse("udp-stream", "--size", "64B").matchedOptionValue("--size", 0));
        assertEquals(1024, parse("rpc", "--size", "1k").matchedOptionValue("--size", 0));
        ParseResult sweep = parse("sweep", "--max-size", "1MB", "--count-size", "4k", "--requests-per-step", "10k",
                "--counts", "1k..2k");
        assertEquals(1 << 20, sweep.matchedOptionValue("--max-size", 0));
        assertEquals(4096, sweep.matchedOptionValue("--count-size", 0));
        assertEquals(10_000L, sweep.matchedOptionValue("--requests-per-step", 0L));
        // --counts counts requests, not bytes.
        assertEquals(new SizeRange(1000, 2000), sweep.matchedOptionValue("--counts", null));
    }

    @Test
    void durationsTakeCompounds() {
        assertEquals(Duration.ofSeconds(90), parse("echo", "--duration", "1m30s").matchedOptionValue("--duration", null));
        assertEquals(Duration.ofMillis(1500), parse("echo", "--warmup", "1s500ms").matchedOptionValue("--warmup", null));
    }

    @Test
    void portsWidthsAndSeedsStayPlainNumbers() {
        for (String[] args : List.of(new String[] {"echo", "--length-field", "4k"}, new String[] {"echo", "--seed", "1k"},
                new String[] {"echo", "--metrics-port", "9k"}, new String[] {"echo", "--io-threads", "1k"})) {
            Cli.Result r = Cli.run(args);
            assertEquals(ExitCodes.USAGE, r.exit(), String.join(" ", args));
            assertTrue(r.err().contains("is not a"), r.err());
        }
        assertEquals(4, parse("echo", "--length-field", "4").matchedOptionValue("--length-field", 0));
    }
}
