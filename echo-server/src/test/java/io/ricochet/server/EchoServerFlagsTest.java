package io.ricochet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.commandline.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The flags' values as the command reads them, and a bad one named by its flag: in process, before anything binds. */
@Timeout(60)
class EchoServerFlagsTest {
    private static final List<String> PORTS = List.of("--tcp-port", "--udp-port", "--rpc-port", "--metrics-port");

    /** {@code flags}, with every port it does not set ephemeral, should a case ever start the server. */
    private static String[] args(String flags) {
        List<String> args = new ArrayList<>(Arrays.asList(flags.split(" ")));
        PORTS.stream().filter(port -> !args.contains(port)).forEach(port -> args.addAll(List.of(port, "0")));
        return args.toArray(String[]::new);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--idle-timeout 0|--idle-timeout 0s (expected: > 0)",
        "--rpc-idle-timeout 0s|--rpc-idle-timeout 0s (expected: > 0)",
        "--rpc-auth-timeout 0s|--rpc-auth-timeout 0s (expected: > 0)",
        "--linger-timeout 0s|--linger-timeout 0s (expected: > 0)",
        "--shutdown-timeout 0ms|--shutdown-timeout 0s (expected: > 0)",
        "--max-frame 0|--max-frame 0 (expected: 1..65535)",
        "--max-frame 64k|--max-frame 65536 (expected: 1..65535)",
        "--io-threads -1|--io-threads -1 (expected: 0..1024)",
        "--max-connections 0|--max-connections 0 (expected: > 0)",
        "--max-connections-per-address 0|--max-connections-per-address 0 (expected: > 0)",
        "--max-udp-sessions 0|--max-udp-sessions 0 (expected: > 0)",
        "--length-field 3|--length-field 3 (expected: 2 or 4)",
        "--tcp-port 70000|--tcp-port 70000 (expected: -1..65535)",
        "--udp-port 70000|--udp-port 70000 (expected: -1..65535)",
        "--rpc-port 70000|--rpc-port 70000 (expected: -1..65535)",
        "--metrics-port -7|--metrics-port -7 (expected: -1..65535)",
        "--metrics-max-connections 0|--metrics-max-connections 0 (expected: > 0)",
        "--metrics-max-connections-per-address 0|--metrics-max-connections-per-address 0 (expected: > 0)",
        "--tls-port 70000|--tls-port 70000 (expected: -1..65535)",
        "--noise-port 70000|--noise-port 70000 (expected: -1..65535)",
        "--noise-port 0 --noise-max-handshakes 0|--noise-max-handshakes 0 (expected: > 0)",
        "--noise-port 0 --noise-max-handshakes 8 --noise-max-handshakes-per-address 9|--noise-max-handshakes-per-address 9 (expected: 1..8)",
        "--noise-port 0 --noise-handshake-threads -1|--noise-handshake-threads -1 (expected: 0..1024)",
        "--tcp-port -1 --udp-port -1|--tcp-port and --udp-port both -1 (expected: at least one echo listener)",
    })
    void aValueOutOfRangeIsNamedByItsFlag(String flags, String message) {
        StringWriter err = new StringWriter();
        CommandLine cli = EchoServerMain.newCommandLine(new EchoServerCommand(new SignalShutdown()));
        cli.setErr(new PrintWriter(err));
        assertEquals(ExitCodes.USAGE, cli.execute(args(flags)), err.toString());
        assertEquals("echo-server: invalid option value: " + message + " (see --help)", err.toString().strip());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--max-frame 64x|'--max-frame': size: 64x (expected: bytes, e.g. 64, 64B, 4k, 4KiB, 1MB, 1.5M)",
        "--max-connections 1.5x|'--max-connections': count: 1.5x (expected: a number with an optional k, M or G",
        "--max-udp-sessions 3G|'--max-udp-sessions': count: 3G (expected: at most 2147483647)",
        "--idle-timeout 1s1m|'--idle-timeout': duration: 1s1m (expected: e.g. 500ms, 2s, 1m30s, 1h or PT2S)",
    })
    void aMalformedValueNamesTheFlagAndTheForms(String flags, String part) {
        StringWriter err = new StringWriter();
        CommandLine cli = EchoServerMain.newCommandLine(new EchoServerCommand(new SignalShutdown()));
        cli.setErr(new PrintWriter(err));
        assertEquals(ExitCodes.USAGE, cli.execute(args(flags)), err.toString());
        String[] lines = err.toString().strip().split("\n");
        assertEquals(1, lines.length, err.toString());
        assertTrue(lines[0].startsWith("echo-server: Invalid value for option " + part), lines[0]);
    }

    @Test
    void sizesCountsAndDurationsTakeTheirUnits() {
        EchoServerCommand command = new EchoServerCommand(new SignalShutdown());
        EchoServerMain.newCommandLine(command).parseArgs("--max-frame", "64KiB", "--max-connections", "100k",
                "--max-udp-sessions", "1.5k", "--idle-timeout", "1m30s", "--linger-timeout", "1s500ms");
        assertEquals(65_536, command.maxFrame);
        assertEquals(100_000, command.maxConnections);
        assertEquals(1_500, command.maxUdpSessions);
        assertEquals(Duration.ofSeconds(90), command.idleTimeout);
        assertEquals(Duration.ofMillis(1500), command.lingerTimeout);
        assertEquals(128, command.metrics.maxConnections, "the metrics port's default cap");
        assertEquals(8, command.metrics.maxConnectionsPerAddress, "and per address");
        EchoServerMain.newCommandLine(command).parseArgs("--max-frame", "16MB", "--length-field", "4");
        assertEquals(16 * 1024 * 1024, command.maxFrame);
    }

    @Test
    void theNoiseHandshakeBoundsDefaultAndFollowEachOther() {
        EchoServerCommand command = new EchoServerCommand(new SignalShutdown());
        EchoServerMain.newCommandLine(command).parseArgs();
        assertEquals(1024, command.noise.maxHandshakes);
        assertEquals(null, command.noise.maxHandshakesPerAddress, "unset: an eighth of the total");
        assertEquals(0, command.noise.handshakeThreads);
        EchoServerMain.newCommandLine(command).parseArgs("--noise-max-handshakes", "4k",
                "--noise-max-handshakes-per-address", "100", "--noise-handshake-threads", "2");
        assertEquals(4000, command.noise.maxHandshakes);
        assertEquals(100, command.noise.maxHandshakesPerAddress);
        assertEquals(2, command.noise.handshakeThreads);
    }

    /** Bounds for a Noise port that is not there are a mistake worth a word, as --noise-key without one is. */
    @Test
    void noiseBoundsWithoutANoisePortAreRefused() {
        StringWriter err = new StringWriter();
        CommandLine cli = EchoServerMain.newCommandLine(new EchoServerCommand(new SignalShutdown()));
        cli.setErr(new PrintWriter(err));
        assertEquals(ExitCodes.USAGE, cli.execute(args("--noise-max-handshakes 10")), err.toString());
        assertTrue(err.toString().contains("--noise-max-handshakes needs --noise-port or --rpc-noise"), err.toString());
    }

    @Test
    void theTlsHandshakeBoundsDefaultAndReachTheConfig() {
        EchoServerCommand command = new EchoServerCommand(new SignalShutdown());
        EchoServerMain.newCommandLine(command).parseArgs();
        assertEquals(64, command.tls.handshakesPerAddress);
        assertEquals(0, command.tls.handshakeThreads, "a quarter of the cores");
        EchoServerMain.newCommandLine(command).parseArgs("--tls-handshakes-per-address", "1k",
                "--tls-handshake-threads", "3");
        assertEquals(1000, command.tls.handshakesPerAddress);
        assertEquals(3, command.tls.handshakeThreads);
    }

    /** As the Noise bounds: TLS handshake bounds with no TLS over TCP to bound are refused, not ignored. */
    @Test
    void tlsBoundsWithoutATlsPortAreRefused() {
        StringWriter err = new StringWriter();
        CommandLine cli = EchoServerMain.newCommandLine(new EchoServerCommand(new SignalShutdown()));
        cli.setErr(new PrintWriter(err));
        assertEquals(ExitCodes.USAGE, cli.execute(args("--tls-handshake-threads 2")), err.toString());
        assertTrue(err.toString().contains("--tls-handshake-threads needs --tls-port or --rpc-tls"), err.toString());
    }

    /**
     * The RPC port's flags are checked before the Noise key file is written: a run refused for a bad token file leaves
     * no key file behind (the flags' split into mixins once checked Noise first).
     */
    @Test
    void aBadRpcFlagIsRefusedBeforeANoiseKeyFileIsWritten(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path key = dir.resolve("noise.key");
        StringWriter err = new StringWriter();
        CommandLine cli = EchoServerMain.newCommandLine(new EchoServerCommand(new SignalShutdown()));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args("--noise-port 0 --noise-key " + key + " --noise-generate-key --rpc-token-file "
                + dir.resolve("missing-token")));
        assertEquals(ExitCodes.USAGE, exit, err.toString());
        assertTrue(err.toString().contains("--rpc-token-file"), err.toString());
        assertTrue(!java.nio.file.Files.exists(key), "the key file was written before the usage error");
    }
}
