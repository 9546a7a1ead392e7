package io.ricochet.loadgen.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.transport.Protocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Scenario files: what they hold reads back into an equal scenario, in YAML and JSON, for every command; and every
 * problem is one line naming the file, the key's line and column, and the key.
 */
class ScenarioFilesTest {

    @Test
    void aFileReadsAsItsFlagsWouldGiveIt() {
        Scenario s = ScenarioFiles.read("s.yaml", """
                command: echo
                target: 127.0.0.1:7000-7001
                connections: 10k
                rate: 20k/s
                duration: 1m30s
                workload:
                  payload: "get k{{conn}}"
                  expect: "regex:^(value |missing)"
                tls:
                  enabled: true
                  insecure: true
                thresholds: [p99<5ms, bad==0]
                io: epoll
                """, null);
        assertEquals(Command.ECHO, s.command());
        assertEquals(Targets.parse("127.0.0.1:7000-7001"), s.target());
        assertEquals(10_000, s.connections());
        assertEquals(20_000.0, s.rate());
        assertEquals(Duration.ofSeconds(90), s.duration());
        assertEquals("get k{{conn}}", s.workload().payload());
        assertEquals(List.of(Threshold.parse("p99<5ms"), Threshold.parse("bad==0")), s.thresholds());
        assertEquals(TransportKind.EPOLL, s.io());
        assertTrue(s.tls().enabled() && s.tls().insecure());
        assertEquals(Scenario.builder(Command.ECHO).build().pipeline(), s.pipeline(), "a key left out: the default");
    }

    @Test
    void jsonIsReadAsJson() {
        Scenario s = ScenarioFiles.read("s.json", "{\"command\": \"rpc\", \"target\": \"127.0.0.1:7100\", "
                + "\"connections\": 4, \"in_flight\": 8, \"requests\": 5000}", null);
        assertEquals(8, s.inFlight());
        assertEquals(5000, s.requests());
    }

    /** Every command's scenario, with its settings changed from the defaults, reads back equal from YAML and JSON. */
    @ParameterizedTest
    @EnumSource(Command.class)
    void everyCommandsScenarioReadsBackEqual(Command command) {
        Scenario s = changed(command);
        assertEquals(s, ScenarioFiles.read("s.yaml", ScenarioFiles.yaml(s), null), ScenarioFiles.yaml(s));
        assertEquals(s, ScenarioFiles.read("s.json", ScenarioFiles.json(s), command), ScenarioFiles.json(s));
    }

    /** A scenario with settings other than its command's defaults wherever the command takes them. */
    static Scenario changed(Command command) {
        Scenario.Builder b = Scenario.builder(command).target(Targets.parse("127.0.0.1:7000"))
                .interval(Duration.ofMillis(500)).seed(-42).io(TransportKind.NIO).ioThreads(2).serverIoThreads(3)
                .maxErrorRate(0.001).report(Path.of("target/r")).json(true).metricsPort(0).metricsHost("0.0.0.0")
                .threshold(Threshold.parse("p99<2ms")).threshold(Threshold.parse("errors==0"));
        if (command != Command.UDP_STREAM) {
            b.timeout(Duration.ofMillis(1500));
        }
        switch (command) {
            case ECHO -> b.connections(7).connectRate(100).pipeline(4).rate(1500.5).duration(Duration.ofSeconds(3))
                    .warmup(Duration.ofMillis(250)).sourceAddresses(Values.sourceAddresses("127.0.0.2-127.0.0.3"))
                    .workload(WorkloadSettings.generated(SizeRange.parseBytes("1k..4k"))).worker(2).firstConnection(9);
            case RR -> b.transport(Protocol.UDP).workload(new WorkloadSettings(null, List.of(), Map.of(), "hello",
                    "equals:olleh", null, null, null, null, null, null, null));
            case CRR -> b.connections(3).transport(Protocol.QUIC).tls(new TlsSettings(false, null, true, null, null,
                    "auto", true, true));
            case MASSIVE -> b.connections(20_000).connectRate(5000).perConnectionRate(1.0 / 60).keyBits(128)
                    .noise(new NoiseSettings(NoiseKeyPair.generate().publicKeyBase64(), "stream"));
            case RPC -> b.connections(9).requests(12_345).warmupRequests(100).inFlight(4).rate(10)
                    .workload(new WorkloadSettings(null, List.of(), Map.of(), null, "{\"ok\": true}", null,
                            Path.of("kv.protoset"), "kv.put", "kv.PutRequest", "kv.PutReply", "{\"key\": \"k\"}",
                            null));
            case REGISTER -> b.connections(3).requests(30).workload(WorkloadSettings.generated(SizeRange.of(0)));
            case SWEEP -> b.connections(2).pipeline(3).sweep(new SweepSettings(10, 4096, SizeRange.parseCounts("1k..2k"),
                    512, false));
            case RAMP -> b.connections(4).pipeline(2).ramp(new RampSettings(Duration.ofMillis(3), 500, 1.5, 1e6, 2,
                    Duration.ZERO)).workload(new WorkloadSettings("kv-text", List.of(Path.of("kv.jar")),
                    Map.of("keys", "100"), null, null, null, null, null, null, null, null, null));
            case UDP_STREAM -> b.rate(1000).duration(Duration.ofSeconds(2)).workload(WorkloadSettings.generated(
                    SizeRange.of(1400))).udpStream(new UdpStreamSettings(4, Duration.ofMillis(200), false, 0.01, 0.05, 6));
        }
        return b.build();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // An unknown key, with the nearest known one.
        "'command: echo\nconections: 5'|s.yaml:2:1: conections: unknown key (did you mean connections?)",
        // A key another command takes.
        "'command: rpc\npipeline: 5'|s.yaml:2:1: pipeline: does not apply to rpc (it is for: echo, sweep, ramp)",
        // A wrong type.
        "'command: echo\njson: yes please'|s.yaml:2:1: json: yes please (expected: true or false)",
        "'command: echo\nconnections: [1, 2]'|s.yaml:2:1: connections: a list (expected: a value)",
        "'command: echo\ntls: true'|s.yaml:2:1: tls: a boolean (expected: a mapping of its keys)",
        "'command: echo\nduration: soon'|s.yaml:2:1: duration: soon (expected: e.g. 500ms, 2s, 1m30s, 1h or PT2S)",
        // A value out of range, found by the scenario's own checks, at its key.
        "'command: echo\nconnections: 0'|s.yaml:2:1: connections: 0 (expected: > 0)",
        "'command: echo\nworkload:\n  size: 70000'|s.yaml:3:3: workload.size: 70000 (expected: 1..65535)",
        "'command: crr\ntransport: udp'|s.yaml:2:1: transport: udp (crr connects: tcp or quic)",
        "'command: echo\ntls:\n  ca: x.pem\n  insecure: true\n  enabled: true'|s.yaml:3:3: tls.ca x.pem with tls.insecure (expected: one or the other)",
        // The file as a whole.
        "'version: 2\ncommand: echo'|s.yaml:1:1: version: 2 (expected: 1, the version this build reads)",
        "'connections: 5'|s.yaml: command: missing (expected: one of echo, rr, crr, massive, rpc, register, sweep, ramp, udp-stream)",
        "'just words'|s.yaml:1:1: a string (expected: a mapping of keys, as YAML or JSON)",
        "'command: echo\ncommand: rr'|s.yaml:2:1: command: given twice (expected: once)",
        // Hostile values, bounded before they are expanded or used.
        "'command: echo\nconnections: 1e999999999'|s.yaml:2:14: connections: 1e999999999 (expected: a number of at most 64 characters, its exponent within 100)",
        "'command: echo\nduration: P200000D'|s.yaml:2:1: duration: P200000D (expected: under 292 years)",
        "'command: echo\ntls.enabled: true'|s.yaml:2:1: tls.enabled: unknown key (expected: tls: a mapping holding enabled)",
    })
    void aBadFileIsOneLineNamingTheKeyWhereItIs(String text, String message) {
        String name = text.startsWith("{") ? "s.json" : "s.yaml";
        ScenarioFileException e = assertThrows(ScenarioFileException.class,
                () -> ScenarioFiles.read(name, text, null));
        assertEquals(message, e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void brokenJsonIsNamedAsJsonWhereItBreaks() {
        ScenarioFileException e = assertThrows(ScenarioFileException.class,
                () -> ScenarioFiles.read("s.json", "{\"command\": \"echo\",", null));
        assertTrue(e.getMessage().startsWith("s.json:1:") && e.getMessage().contains(": not JSON: "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void aFileForAnotherCommandIsRefusedAtItsCommand() {
        ScenarioFileException e = assertThrows(ScenarioFileException.class,
                () -> ScenarioFiles.read("s.yaml", "command: rpc\n", Command.ECHO));
        assertEquals("s.yaml:1:1: command: rpc (expected: echo, the command this file was given to)", e.getMessage());
    }

    @Test
    void aFileThatIsNotTextOrTooLargeIsRefusedBeforeParsing(@TempDir Path dir) throws Exception {
        Path binary = Files.write(dir.resolve("bin.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertEquals(binary + ": not text (expected: YAML or JSON in UTF-8)",
                assertThrows(ScenarioFileException.class, () -> ScenarioFiles.read(binary, null)).getMessage());
        Path large = Files.write(dir.resolve("large.yaml"), new byte[ScenarioFiles.MAX_FILE_BYTES + 1]);
        assertTrue(assertThrows(ScenarioFileException.class, () -> ScenarioFiles.read(large, null)).getMessage()
                .contains("(expected: at most 1,048,576)"));
        Path missing = dir.resolve("missing.yaml");
        assertTrue(assertThrows(ScenarioFileException.class, () -> ScenarioFiles.read(missing, null)).getMessage()
                .equals(missing + ": no such file"));
    }

    /** A device or a FIFO never ends, or blocks: it is refused before it is opened. */
    @Test
    void aFileWithNoEndIsRefused() {
        Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(zero), "no /dev/zero here");
        assertEquals("/dev/zero: not a regular file (a device or a FIFO; expected: a file)",
                assertThrows(ScenarioFileException.class, () -> ScenarioFiles.read(zero, null)).getMessage());
    }

    @Test
    void aPathThatCannotBeOneIsNamedAtItsKey() {
        ScenarioFileException e = assertThrows(ScenarioFileException.class, () -> ScenarioFiles.read("s.json",
                "{\"command\": \"echo\", \"report\": \"a\\u0000b\"}", null));
        assertTrue(e.getMessage().startsWith("s.json:1:21: report: "), e.getMessage());
    }

    /** Strings that YAML would read as numbers are quoted when written, so they read back as the same strings. */
    @Test
    void stringsThatLookLikeNumbersStayStrings() {
        Scenario s = Scenario.builder(Command.ECHO).target(Targets.parse("127.0.0.1:7000"))
                .workload(WorkloadSettings.named("kv", Map.of("a", "0x10", "b", "1_000", "c", "1e3", "d", "010")))
                .build();
        assertEquals(s, ScenarioFiles.read("s.yaml", ScenarioFiles.yaml(s), null), ScenarioFiles.yaml(s));
    }

    @Test
    void sourceAddressesAreBoundedInAll() {
        String many = String.join(",", java.util.Collections.nCopies(3, "10.0.0.0-10.0.255.255"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Values.sourceAddresses(many));
        assertTrue(e.getMessage().endsWith("(expected: at most 65536 addresses in all)"), e.getMessage());
    }

    @Test
    void aHostileNestingIsBoundedBeforeAnythingIsBuilt() {
        String deep = "command: echo\nworkload: " + "[".repeat(100) + "]".repeat(100);
        ScenarioFileException e = assertThrows(ScenarioFileException.class, () -> ScenarioFiles.read("d.yaml", deep,
                null));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
