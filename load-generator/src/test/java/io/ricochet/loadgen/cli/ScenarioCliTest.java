package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import io.ricochet.loadgen.scenario.ScenarioKeys;
import io.ricochet.noise.NoiseKeyPair;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line and the scenario file are one model: any flags a command takes make a scenario that prints as YAML
 * ({@code --print-scenario}) and reads back equal; a file gives the same scenario its flags would, flags override it,
 * and a bad file is one line naming where it is.
 */
class ScenarioCliTest {
    private static final String NOISE_KEY = NoiseKeyPair.generate().publicKeyBase64();

    /** A valid value for each key's flag, made from a random source: what a user might type. */
    private static final Map<String, Function<Random, String>> VALUES = Map.ofEntries(
            Map.entry("target", r -> "127.0.0.1:" + (7000 + r.nextInt(100))),
            Map.entry("transport", r -> List.of("tcp", "udp", "quic").get(r.nextInt(3))),
            Map.entry("length_field", r -> r.nextBoolean() ? "2" : "4"),
            Map.entry("connections", r -> Integer.toString(1 + r.nextInt(500))),
            Map.entry("connect_rate", r -> (1 + r.nextInt(1000)) + "/s"),
            Map.entry("per_connection_rate", r -> "0.5"),
            Map.entry("pipeline", r -> Integer.toString(1 + r.nextInt(8))),
            Map.entry("in_flight", r -> Integer.toString(1 + r.nextInt(8))),
            Map.entry("rate", r -> (100 + r.nextInt(10_000)) + ""),
            Map.entry("source_addresses", r -> "127.0.0.1"),
            Map.entry("duration", r -> (1 + r.nextInt(60)) + "s"),
            Map.entry("warmup", r -> (r.nextInt(900) + 100) + "ms"),
            Map.entry("warmup_requests", r -> Integer.toString(r.nextInt(100))),
            Map.entry("requests", r -> (1 + r.nextInt(10)) + "k"),
            Map.entry("timeout", r -> (100 + r.nextInt(5000)) + "ms"),
            Map.entry("interval", r -> (r.nextInt(5) + 1) * 250 + "ms"),
            Map.entry("seed", r -> Long.toString(r.nextLong())),
            Map.entry("key_bits", r -> r.nextBoolean() ? "128" : "256"),
            Map.entry("workload.name", r -> "kv-text"),
            Map.entry("workload.params", r -> "keys=" + r.nextInt(1000)),
            Map.entry("workload.size", r -> Integer.toString(1 + r.nextInt(512))),
            Map.entry("workload.payload", r -> "get {{seq}}"),
            Map.entry("workload.expect", r -> r.nextBoolean() ? "echo" : "regex:^.*$"),
            Map.entry("tls.provider", r -> "jdk"),
            Map.entry("noise.server_key", r -> NOISE_KEY),
            Map.entry("noise.mode", r -> r.nextBoolean() ? "package" : "stream"),
            Map.entry("io", r -> List.of("nio", "epoll", "auto").get(r.nextInt(3))),
            Map.entry("io_threads", r -> Integer.toString(1 + r.nextInt(4))),
            Map.entry("server_io_threads", r -> Integer.toString(1 + r.nextInt(4))),
            Map.entry("thresholds", r -> "p99<" + (1 + r.nextInt(10)) + "ms"),
            Map.entry("max_error_rate", r -> "0.0" + r.nextInt(10)),
            Map.entry("report", r -> "target/report-" + r.nextInt(10)),
            Map.entry("scrape", r -> "http://127.0.0.1:" + (9000 + r.nextInt(100)) + "/metrics"),
            Map.entry("metrics_port", r -> Integer.toString(r.nextInt(2) * 9100)),
            Map.entry("metrics_host", r -> "127.0.0.1"),
            Map.entry("ramp.slo", r -> (1 + r.nextInt(10)) + "ms"),
            Map.entry("ramp.start_rate", r -> "1k"),
            Map.entry("ramp.factor", r -> "1.5"),
            Map.entry("sweep.requests_per_step", r -> "500"),
            Map.entry("sweep.max_size", r -> "64k"),
            Map.entry("udp_stream.sockets", r -> Integer.toString(1 + r.nextInt(4))),
            Map.entry("udp_stream.linger", r -> "200ms"));

    /** Keys left out: a file's, a worker's, and those whose value names a file that must exist. */
    private static final List<String> NOT_FLAGS = List.of("version", "command", "worker", "first_connection",
            "workload.jars", "workload.proto", "workload.method", "workload.request_type", "workload.response_type",
            "workload.data", "workload.expect_status", "tls.ca", "tls.client_cert", "tls.client_key");

    private static Scenario scenarioOf(List<String> args) {
        CommandLine cli = LoadGeneratorMain.newCommandLine();
        ParseResult parsed = cli.parseArgs(args.toArray(String[]::new));
        return ((LoadCommand) parsed.subcommand().commandSpec().userObject()).scenario();
    }

    /**
     * Random sets of flags, every command: those that make a scenario (a combination may be refused, as a user's may)
     * print as YAML and JSON that read back equal, and {@code --print-scenario} prints that YAML.
     */
    @ParameterizedTest
    @EnumSource(Command.class)
    void anyFlagsMakeAScenarioThatReadsBackEqual(Command command) {
        long seed = Long.getLong("scenario.seed", System.nanoTime());
        Random random = new Random(seed);
        CommandLine.Model.CommandSpec spec = LoadGeneratorMain.newCommandLine().getSubcommands()
                .get(command.label()).getCommandSpec();
        List<String> keys = ScenarioKeys.all().stream().filter(k -> ScenarioKeys.appliesTo(k, command))
                .filter(k -> !NOT_FLAGS.contains(k)).filter(k -> spec.findOption(ScenarioKeys.flag(command, k)) != null)
                .toList();
        // Settings that go together are picked together, as a user gives them: one security, one kind of workload.
        List<List<String>> groups = List.of(List.of("tls.enabled", "tls.insecure", "tls.provider", "key_bits"),
                List.of("noise.server_key", "noise.mode", "key_bits"), List.of("workload.name", "workload.params"),
                List.of("workload.payload", "workload.expect"), List.of("workload.size", "workload.expect"));
        List<String> single = keys.stream().filter(k -> groups.stream().noneMatch(g -> g.contains(k))).toList();
        int built = 0;
        int rounds = 0;
        // Until 30 flag sets have made scenarios: a random set may be refused (flags that exclude each other), and how
        // many are varies with the seed (once 9 of 30 with seed 15280170894135), so a fixed count of tries was flaky.
        for (; rounds < 300 && built < 30; rounds++) {
            List<String> args = new ArrayList<>(List.of(command.label()));
            List<String> picked = new ArrayList<>(single.stream().filter(k -> random.nextInt(4) == 0).toList());
            picked.addAll(groups.get(random.nextInt(groups.size())).stream().filter(keys::contains).toList());
            for (String key : picked) {
                OptionSpec option = spec.findOption(ScenarioKeys.flag(command, key));
                if (option.arity().max() == 0) {
                    args.add(option.longestName());
                } else if (VALUES.containsKey(key)) {
                    args.add(option.longestName());
                    args.add(VALUES.get(key).apply(random));
                }
            }
            Scenario s;
            try {
                s = scenarioOf(args);
            } catch (ParameterException | IllegalArgumentException refused) {
                continue;
            }
            built++;
            String yaml = ScenarioFiles.yaml(s);
            String where = "seed " + seed + ": " + String.join(" ", args) + "\n" + yaml;
            assertEquals(s, ScenarioFiles.read("s.yaml", yaml, command), where);
            assertEquals(s, ScenarioFiles.read("s.json", ScenarioFiles.json(s), null), where);
            if (built > 3) {
                continue;
            }
            List<String> printing = new ArrayList<>(args);
            printing.add("--print-scenario");
            Cli.Result printed = Cli.run(printing.toArray(String[]::new));
            assertEquals(0, printed.exit(), where + printed.err());
            assertEquals(yaml, printed.out(), where);
        }
        assertTrue(built >= 10, "seed " + seed + ": only " + built + " of " + rounds + " random flag sets made a scenario");
    }

    @Test
    void aFileGivesWhatItsFlagsWouldAndFlagsOverrideIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, """
                command: echo
                target: 127.0.0.1:7000
                connections: 5
                rate: 1000
                thresholds: [p99<5ms]
                """);
        Scenario fromFlags = scenarioOf(List.of("echo", "--target", "127.0.0.1:7000", "--connections", "5", "--rate",
                "1000", "--threshold", "p99<5ms"));
        assertEquals(fromFlags, scenarioOf(List.of("echo", "--scenario", file.toString())));
        Scenario overridden = scenarioOf(List.of("echo", "--scenario", file.toString(), "--connections", "7"));
        assertEquals(fromFlags.toBuilder().connections(7).build(), overridden);
    }

    @Test
    void aBadFileIsOneLineNamingWhereAndExitsTwo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, "command: echo\nconections: 5\n");
        Cli.Result r = Cli.run("echo", "--scenario", file.toString(), "--print-scenario");
        assertEquals(2, r.exit(), r.err());
        assertEquals("load-generator: " + file + ":2:1: conections: unknown key (did you mean connections?) (see --help)",
                r.err().strip());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
        Files.writeString(file, "command: echo\nconnections: 0\n");
        Cli.Result range = Cli.run("echo", "--scenario", file.toString(), "--print-scenario");
        assertEquals(2, range.exit(), range.err());
        assertTrue(range.err().contains(file + ":2:1: connections: 0 (expected: > 0)"), range.err());
        Cli.Result missing = Cli.run("echo", "--scenario", dir.resolve("none.yaml").toString());
        assertEquals(2, missing.exit(), missing.err());
        assertTrue(missing.err().contains("none.yaml"), missing.err());
    }

    /** A value given as a flag is refused naming the flag, as before scenarios. */
    @Test
    void aBadFlagValueNamesTheFlag() {
        Cli.Result r = Cli.run("crr", "--concurrency", "0", "--print-scenario");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("invalid option value: --concurrency 0 (expected: > 0)"), r.err());
    }

    /** A scenario file runs alone: the embedded server, every reply checked. */
    @Test
    void aScenarioFileRuns(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, """
                command: echo
                connections: 2
                requests: 200
                json: true
                thresholds: [bad==0]
                """);
        Cli.Result r = Cli.run("echo", "--scenario", file.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(200, r.json().get("ok").asLong(), r.out());
    }
}
