package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

class ShardPlannerTest {

    private static List<List<String>> plan(double[] weights, String... scenario) {
        ParseResult parsed = LoadGeneratorMain.newCommandLine().parseArgs(scenario);
        return ShardPlanner.plan(parsed.subcommand(), weights, "10.0.0.1:7000");
    }

    @Test
    void totalsSplitExactlyByWeightRatesInProportionSeedsApart() {
        List<List<String>> shards = plan(new double[] {1, 1, 2}, "echo", "--connections", "10", "--rate", "1000/s",
                "--seed", "7", "--duration", "5s", "--report", "/tmp/x", "--json");
        assertEquals(3, shards.size());
        assertTrue(shards.get(0).containsAll(List.of("echo", "--target=10.0.0.1:7000", "--connections=3",
                "--rate=250.000000/s", "--seed=7", "--duration=5s")), shards.get(0).toString());
        assertTrue(shards.get(1).contains("--connections=2") || shards.get(1).contains("--connections=3"));
        assertTrue(shards.get(2).containsAll(List.of("--connections=5", "--rate=500.000000/s",
                "--seed=" + (7 + 2 * ShardPlanner.SEED_STRIDE))), shards.get(2).toString());
        long total = shards.stream().flatMap(List::stream).filter(a -> a.startsWith("--connections="))
                .mapToLong(a -> Long.parseLong(a.substring(14))).sum();
        assertEquals(10, total);
        shards.forEach(s -> assertTrue(s.stream().noneMatch(a -> a.startsWith("--report") || a.equals("--json")), s.toString()));
        // Every shard parses back as the same command.
        shards.forEach(s -> LoadGeneratorMain.newCommandLine().parseArgs(s.toArray(String[]::new)));
    }

    @Test
    void eachRuleIsReadFromBesideItsOptionMixinsIncluded() {
        picocli.CommandLine.Model.CommandSpec echo = LoadGeneratorMain.newCommandLine().getSubcommands().get("echo")
                .getCommandSpec();
        assertEquals(Shard.Rule.SEED, ShardPlanner.rule(echo.findOption("--seed")), "from the CommonOptions mixin");
        assertEquals(Shard.Rule.CONTROLLER_ONLY, ShardPlanner.rule(echo.findOption("--target")));
        assertEquals(Shard.Rule.SPLIT_TOTAL, ShardPlanner.rule(echo.findOption("--connections")));
        assertEquals(Shard.Rule.ABSOLUTE_FILE, ShardPlanner.rule(echo.findOption("--tls-ca")), "from TlsOptions");
        assertEquals(Shard.Rule.COPY, ShardPlanner.rule(echo.findOption("--duration")), "no rule: copied");
    }

    @Test
    void warmupIsADurationCopiedForEchoAndACallCountSplitForRpc() {
        List<List<String>> echo = plan(new double[] {1, 1}, "echo", "--warmup", "2s");
        echo.forEach(s -> assertTrue(s.contains("--warmup=2s"), s.toString()));
        List<List<String>> rpc = plan(new double[] {1, 1}, "rpc", "--warmup", "1001");
        assertTrue(rpc.get(0).contains("--warmup=501") && rpc.get(1).contains("--warmup=500"), rpc.toString());
    }

    @Test
    void defaultsAreSplitToo() {
        List<List<String>> shards = plan(new double[] {1, 1}, "massive");
        assertTrue(shards.get(0).contains("--connections=5000"), shards.get(0).toString());
        assertTrue(shards.get(1).contains("--connect-rate=1000.000000/s"), shards.get(1).toString());
    }

    @Test
    void sourceAddressesAreDealtOutWhenThereAreEnough() {
        List<List<String>> shards = plan(new double[] {1, 1}, "echo", "--source-addresses", "127.0.0.2-127.0.0.5");
        assertTrue(shards.get(0).contains("--source-addresses=127.0.0.2,127.0.0.4"), shards.get(0).toString());
        assertTrue(shards.get(1).contains("--source-addresses=127.0.0.3,127.0.0.5"), shards.get(1).toString());
    }

    @Test
    void noTwoWorkersShareASourceAddress() {
        List<List<String>> shards = plan(new double[] {1, 1, 1}, "massive", "--source-addresses", "127.0.0.1-127.0.0.8");
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (List<String> shard : shards) {
            String given = shard.stream().filter(a -> a.startsWith("--source-addresses=")).findFirst().orElseThrow();
            for (String address : given.substring("--source-addresses=".length()).split(",")) {
                assertTrue(seen.add(address), address + " given to two workers: " + shards);
            }
        }
        assertEquals(8, seen.size(), "every address is used");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> plan(new double[] {1, 1, 1}, "echo", "--source-addresses", "127.0.0.2,127.0.0.3"));
        assertEquals("source-addresses: 2 address(es) over 3 workers would have workers share a source address "
                + "(expected: at least one per worker)", e.getMessage());
    }

    @Test
    void eachWorkersConnectionsAreNumberedOnFromThePreviousWorkers() {
        List<List<String>> echo = plan(new double[] {1, 1, 2}, "echo", "--connections", "8");
        assertTrue(echo.get(0).contains("--first-connection=0"), echo.get(0).toString());
        assertTrue(echo.get(1).contains("--first-connection=2"), echo.get(1).toString());
        assertTrue(echo.get(2).contains("--first-connection=4"), echo.get(2).toString());
        List<List<String>> crr = plan(new double[] {1, 1}, "crr", "--concurrency", "6");
        assertTrue(crr.get(1).contains("--first-connection=3"), crr.get(1).toString());
    }

    @Test
    void aWorkerTakesTheControllerAsOneAddress() {
        ParseResult worker = LoadGeneratorMain.newCommandLine().parseArgs("worker", "--controller=127.0.0.1:42315",
                "--index=0");
        assertEquals(new java.net.InetSocketAddress("127.0.0.1", 42315),
                ((WorkerCommand) worker.subcommand().commandSpec().userObject()).controller);
    }

    @Test
    void everyWorkerGetsTheWholeTargetList() {
        ParseResult parsed = LoadGeneratorMain.newCommandLine().parseArgs("echo", "--target",
                "127.0.0.1:7000-7002,10.0.0.5:7000");
        CommonOptions common = ((ScenarioCommand) parsed.subcommand().commandSpec().userObject()).common();
        List<List<String>> shards = ShardPlanner.plan(parsed.subcommand(), new double[] {1, 1},
                common.target.toString());
        shards.forEach(s -> assertTrue(s.contains("--target=127.0.0.1:7000-7002,10.0.0.5:7000"), s.toString()));
        shards.forEach(s -> LoadGeneratorMain.newCommandLine().parseArgs(s.toArray(String[]::new)));
    }

    @Test
    void tooFewToGoAroundIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> plan(new double[] {1, 1, 1, 1}, "echo", "--connections", "3"));
        assertEquals("connections: 3 over 4 workers leaves worker 3 none (expected: at least one each)", e.getMessage());
        assertArrayEquals(new long[] {34, 33, 33}, ShardPlanner.split(100, new double[] {1, 1, 1}, "--x"));
    }

    @Test
    void tlsFlagsGoToEveryWorkerWithFilesMadeAbsolute() {
        List<List<String>> shards = plan(new double[] {1, 1}, "echo", "--tls", "--tls-ca", "certs/ca.pem",
                "--client-cert", "certs/c.pem", "--client-key", "certs/c.key", "--tls-provider", "jdk");
        String cwd = java.nio.file.Path.of("").toAbsolutePath().toString();
        for (List<String> shard : shards) {
            assertTrue(shard.containsAll(List.of("--tls", "--tls-provider=jdk",
                    "--tls-ca=" + java.nio.file.Path.of(cwd, "certs", "ca.pem"),
                    "--client-cert=" + java.nio.file.Path.of(cwd, "certs", "c.pem"),
                    "--client-key=" + java.nio.file.Path.of(cwd, "certs", "c.key"))), shard.toString());
            LoadGeneratorMain.newCommandLine().parseArgs(shard.toArray(String[]::new));
        }
    }
}
