package io.ricochet.loadgen.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Scenario#shard} as a pure function: the parts add up exactly to the whole for any weights (connections,
 * requests, warmup calls; rates to the last bit that doubles allow), connections are numbered over the run without a
 * gap, seeds never coincide, source addresses are dealt without sharing, and the controller's own settings stay
 * behind.
 */
class ShardingTest {
    private static final Targets TARGET = Targets.parse("127.0.0.1:7000-7002,10.0.0.5:7000");

    @Test
    void connectionsRatesAndSeedsAreSplitByWeight() {
        Scenario whole = Scenario.builder(Command.ECHO).target(TARGET).connections(10).rate(1000).seed(7)
                .duration(Duration.ofSeconds(5)).report(Path.of("r")).json(true)
                .threshold(Threshold.parse("p99<2ms")).scrape(List.of(URI.create("http://127.0.0.1:9100/metrics")))
                .metricsPort(9101).build();
        double[] weights = {1, 1, 2};
        List<Scenario> shards = shards(whole, weights);
        assertEquals(List.of(3, 2, 5), shards.stream().map(Scenario::connections).toList());
        assertEquals(List.of(250.0, 250.0, 500.0), shards.stream().map(Scenario::rate).toList());
        assertEquals(List.of(7L, 7 + Sharding.SEED_STRIDE, 7 + 2 * Sharding.SEED_STRIDE),
                shards.stream().map(Scenario::seed).toList());
        assertEquals(List.of(0L, 3L, 5L), shards.stream().map(Scenario::firstConnection).toList());
        assertEquals(List.of(0, 1, 2), shards.stream().map(Scenario::worker).toList());
        for (Scenario shard : shards) {
            assertEquals(TARGET, shard.target(), "every worker gets every target");
            assertEquals(Duration.ofSeconds(5), shard.duration(), "copied as given");
            assertNull(shard.report());
            assertEquals(false, shard.json());
            assertEquals(List.of(), shard.thresholds());
            assertEquals(List.of(), shard.scrape());
            assertNull(shard.metricsPort());
        }
    }

    @Test
    void rpcSplitsClientsCallsAndWarmupCalls() {
        Scenario whole = Scenario.builder(Command.RPC).target(Targets.parse("127.0.0.1:7100")).connections(5)
                .requests(1001).warmupRequests(1001).build();
        List<Scenario> shards = shards(whole, new double[] {1, 1});
        assertEquals(List.of(501L, 500L), shards.stream().map(Scenario::requests).toList());
        assertEquals(List.of(501L, 500L), shards.stream().map(Scenario::warmupRequests).toList());
        assertEquals(List.of(3, 2), shards.stream().map(Scenario::connections).toList());
    }

    /** A warmup of 0 is valid, so a small one leaves some workers none rather than refusing the run. */
    @Test
    void aSmallRpcWarmupLeavesSomeWorkersNone() {
        Scenario whole = Scenario.builder(Command.RPC).target(Targets.parse("127.0.0.1:7100")).connections(4)
                .requests(1000).warmupRequests(2).build();
        List<Scenario> shards = shards(whole, new double[] {1, 1, 1, 1});
        assertEquals(2, shards.stream().mapToLong(Scenario::warmupRequests).sum());
        assertEquals(List.of(1L, 1L, 0L, 0L), shards.stream().map(Scenario::warmupRequests).toList());
    }

    @Test
    void rrKeepsItsOneConnectionOnEachWorker() {
        Scenario whole = Scenario.builder(Command.RR).target(TARGET).build();
        List<Scenario> shards = shards(whole, new double[] {1, 1, 1});
        assertEquals(List.of(1, 1, 1), shards.stream().map(Scenario::connections).toList());
        assertEquals(List.of(0L, 1L, 2L), shards.stream().map(Scenario::firstConnection).toList());
    }

    @Test
    void sourceAddressesAreDealtAndNeverShared() throws Exception {
        Scenario whole = Scenario.builder(Command.MASSIVE).target(TARGET)
                .sourceAddresses(Values.sourceAddresses("127.0.0.1-127.0.0.8")).build();
        List<Scenario> shards = shards(whole, new double[] {1, 1, 1});
        assertEquals(addresses("127.0.0.1", "127.0.0.4", "127.0.0.7"), shards.get(0).sourceAddresses());
        Set<InetAddress> seen = new HashSet<>();
        shards.forEach(s -> s.sourceAddresses().forEach(a -> assertTrue(seen.add(a), a + " given to two workers")));
        assertEquals(8, seen.size(), "every address is used");
        Scenario two = whole.toBuilder().sourceAddresses(Values.sourceAddresses("127.0.0.2-127.0.0.3")).build();
        ScenarioException e = assertThrows(ScenarioException.class, () -> two.shard(0, new double[] {1, 1, 1}));
        assertEquals("source_addresses: 2 address(es) over 3 workers would have workers share a source address "
                + "(expected: at least one per worker)", e.getMessage());
        assertEquals("source-addresses: 2 address(es) over 3 workers would have workers share a source address "
                + "(expected: at least one per worker)", e.render(key -> ScenarioKeys.flag(Command.MASSIVE, key)));
    }

    @Test
    void aTotalTooSmallForTheWorkersIsRefusedByItsName() {
        Scenario crr = Scenario.builder(Command.CRR).target(TARGET).connections(3).build();
        ScenarioException e = assertThrows(ScenarioException.class, () -> crr.shard(0, new double[] {1, 1, 1, 1}));
        assertEquals("concurrency: 3 over 4 workers leaves worker 3 none (expected: at least one each)",
                e.render(key -> ScenarioKeys.flag(Command.CRR, key)));
        assertArrayEquals(new long[] {34, 33, 33}, Sharding.split(100, new double[] {1, 1, 1}, "x"));
    }

    @Test
    void filesAreMadeAbsoluteForWorkersStartedElsewhere() {
        Scenario whole = Scenario.builder(Command.ECHO).target(TARGET).tls(new TlsSettings(true, Path.of("ca.pem"),
                false, null, null, "jdk", false, false)).build();
        Scenario shard = whole.shard(1, new double[] {1, 1});
        assertEquals(Path.of("ca.pem").toAbsolutePath(), shard.tls().ca());
        assertEquals("jdk", shard.tls().provider());
    }

    @Test
    void sweepRampAndUdpStreamAreNotSplit() {
        Scenario sweep = Scenario.builder(Command.SWEEP).build();
        assertThrows(ScenarioException.class, () -> sweep.shard(0, new double[] {1}));
    }

    /** The property, for many random scenarios and weights: the parts add up to the whole, numbered without a gap. */
    @Test
    void theShardsAddUpExactlyToTheWholeForAnyWeights() {
        Random random = new Random(41);
        for (int trial = 0; trial < 2_000; trial++) {
            int workers = 1 + random.nextInt(16);
            double[] weights = new double[workers];
            for (int i = 0; i < workers; i++) {
                weights[i] = random.nextBoolean() ? 1 : 0.01 + random.nextDouble() * 100;
            }
            Command command = List.of(Command.ECHO, Command.CRR, Command.MASSIVE, Command.RPC, Command.REGISTER)
                    .get(random.nextInt(5));
            int connections = workers * (1 + random.nextInt(1000)) + random.nextInt(1000);
            long requests = command.rpc() ? workers * 10L + random.nextInt(1_000_000) : 0;
            Scenario.Builder b = Scenario.builder(command).target(command.rpc() ? Targets.parse("127.0.0.1:7100") : TARGET)
                    .connections(connections)
                    .requests(requests).seed(random.nextLong() >> 1);
            if (command == Command.ECHO || command == Command.RPC) {
                b.rate(random.nextDouble() * 1e6);
            }
            if (command == Command.ECHO || command == Command.MASSIVE) {
                b.connectRate(random.nextDouble() * 1e4);
            }
            Scenario whole = b.build();
            String seen = "trial " + trial + ": " + whole.command().label() + " " + connections + " over "
                    + java.util.Arrays.toString(weights);
            List<Scenario> shards;
            try {
                shards = shards(whole, weights);
            } catch (ScenarioException e) {
                // A weight so small that its share rounds to none: refused by name, never a worker with nothing.
                assertTrue(e.getMessage().contains("leaves worker"), seen + ": " + e.getMessage());
                continue;
            }
            assertEquals(connections, shards.stream().mapToLong(Scenario::connections).sum(), seen);
            assertEquals(requests, shards.stream().mapToLong(Scenario::requests).sum(), seen);
            assertEquals(whole.rate(), shards.stream().mapToDouble(Scenario::rate).sum(), whole.rate() * 1e-12 + 1e-9,
                    seen);
            assertEquals(whole.connectRate(), shards.stream().mapToDouble(Scenario::connectRate).sum(),
                    whole.connectRate() * 1e-12 + 1e-9, seen);
            long next = 0;
            Set<Long> seeds = new HashSet<>();
            for (Scenario shard : shards) {
                assertEquals(next, shard.firstConnection(), seen);
                next += shard.connections();
                assertTrue(seeds.add(shard.seed()), seen);
                assertTrue(shard.connections() > 0, seen);
            }
        }
    }

    private static List<Scenario> shards(Scenario whole, double[] weights) {
        List<Scenario> shards = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            shards.add(whole.shard(i, weights));
        }
        return shards;
    }

    private static List<InetAddress> addresses(String... ips) throws Exception {
        List<InetAddress> out = new ArrayList<>();
        for (String ip : ips) {
            out.add(InetAddress.getByName(ip));
        }
        return out;
    }
}
