package io.ricochet.loadgen.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.transport.Protocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each limit refuses the run that breaks it, naming it; a run within every limit fits. */
class CapacityPlanTest {
    /** This machine's: 20,000 open files, 32768..60999, 24 GiB. */
    private static final Limits HERE = new Limits(20_000, 28_232, 24L << 30, 32L << 30);
    private static final ConnectionCosts COSTS = new ConnectionCosts(4_000, 3_000, 8_000, 100L << 20, 100L << 20);

    private static Demand local(long connections, int workers, int targets, int sources, double connectRate) {
        return new Demand(connections, workers, (connections + workers - 1) / workers, targets, true, Protocol.TCP, sources,
                connectRate, Duration.ofSeconds(60),
                Duration.ofSeconds(30), true, false, 0);
    }

    @Test
    void aHundredThousandOverSixWorkersAndTwelveSourcesFits() {
        CapacityPlan plan = CapacityPlan.of(local(100_000, 6, 1, 12, 5_000), HERE, COSTS);
        assertNull(plan.refusal(), plan.lines().toString());
        assertTrue(plan.lines().contains("ports: 8,334 per source address (12 given), of 28,232 ephemeral"),
                plan.lines().toString());
        assertTrue(plan.lines().contains("open files: 16,667 in the busiest process, of 18,976 one may hold here "
                + "(open-file limit 20,000)"), plan.lines().toString());
        assertTrue(plan.lines().contains("connect time: 20.0 s at 5,000/s, in a run of 90.0 s"), plan.lines().toString());
    }

    /** What a workload declares its state costs a connection is planned on top of the engine's measured cost. */
    @Test
    void aWorkloadsDeclaredMemoryPerConnectionIsWhatThePlanCounts() {
        Demand declared = new Demand(1_000_000, 100, 10_000, 1, false, Protocol.TCP, 100, 0, Duration.ZERO,
                Duration.ofSeconds(10), true, false, 0, 36_000);
        CapacityPlan plan = CapacityPlan.of(declared, HERE);
        assertTrue(plan.lines().contains("generator memory per connection: 40,000 B (4,000 B measured for an echo "
                + "connection, and 36,000 B the workload declares)"), plan.lines().toString());
        // 1,000,000 x 40,000 B is 37 GiB of generator alone: more than this machine's 24 GiB, where 4,000 B each fit.
        assertTrue(plan.refusal() != null && plan.refusal().startsWith("memory:"), String.valueOf(plan.refusal()));
        Demand measured = new Demand(1_000_000, 100, 10_000, 1, false, Protocol.TCP, 100, 0, Duration.ZERO,
                Duration.ofSeconds(10), true, false, 0);
        assertNull(CapacityPlan.of(measured, HERE).refusal(), CapacityPlan.of(measured, HERE).lines().toString());
    }

    @Test
    void tooFewPortsForOneSourceAddressIsRefused() {
        CapacityPlan plan = CapacityPlan.of(local(100_000, 6, 1, 0, 0), HERE, COSTS);
        assertEquals("ports: 100,000 connections per target from this machine's one source address, but the "
                + "ephemeral range has 28,232 (give --source-addresses, 4 or more, or more targets)", plan.refusal());
    }

    @Test
    void moreConnectionsThanOneProcessMayOpenAreRefusedWithTheWorkersThatWouldDo() {
        CapacityPlan plan = CapacityPlan.of(local(50_000, 2, 1, 4, 0), HERE, COSTS);
        assertEquals("open files: 25,000 in one process, but one may hold 18,976 here (open-file limit 20,000; "
                + "split them with controller --workers 3 or more)", plan.refusal());
    }

    @Test
    void anEmbeddedServerHoldsTheOtherEndInTheSameProcess() {
        Demand alone = new Demand(10_000, 1, 10_000, 0, true, Protocol.TCP, 0, 0, Duration.ZERO, Duration.ofSeconds(10), false, false, 0);
        assertEquals("open files: 20,000 in one process, the embedded server's ends included, but one may hold "
                + "18,976 here (open-file limit 20,000; give --target a separate server)",
                CapacityPlan.of(alone, HERE, COSTS).refusal());
    }

    /** QUIC connections share a socket per I/O thread on each side: past the open-file limit and the ports alike. */
    @Test
    void quicConnectionsTakeNoDescriptorOrPortEach() {
        Demand quic = new Demand(50_000, 1, 50_000, 0, true, Protocol.QUIC, 0, 0, Duration.ZERO, Duration.ofSeconds(10),
                false, false, 0);
        CapacityPlan plan = CapacityPlan.of(quic, HERE, ConnectionCosts.of(quic));
        assertNull(plan.refusal());
        assertEquals(1, quic.descriptorsPerProcess(), "the embedded server's one QUIC socket");
    }

    /** What stops QUIC is memory: a QUIC connection's state is tens of kilobytes on each end. */
    @Test
    void quicConnectionsAreBoundByMemory() {
        Demand quic = new Demand(500_000, 1, 500_000, 0, true, Protocol.QUIC, 0, 0, Duration.ZERO, Duration.ofSeconds(10),
                false, false, 0);
        assertEquals(ConnectionCosts.QUIC, ConnectionCosts.of(quic));
        assertTrue(CapacityPlan.of(quic, HERE, ConnectionCosts.of(quic)).refusal().startsWith("memory: "),
                CapacityPlan.of(quic, HERE, ConnectionCosts.of(quic)).refusal());
    }

    @Test
    void anEmbeddedUdpServerAnswersOnOneSocket() {
        Demand udp = new Demand(10_000, 1, 10_000, 0, true, Protocol.UDP, 0, 0, Duration.ZERO, Duration.ofSeconds(10), false,
                false, 0);
        assertNull(CapacityPlan.of(udp, HERE, COSTS).refusal());
    }

    @Test
    void theHeaviestOfWeightedWorkersIsTheOneChecked() {
        Demand weighted = new Demand(30_000, 2, 22_500, 1, true, Protocol.TCP, 4, 0, Duration.ZERO, Duration.ofSeconds(10),
                true, false, 0);
        CapacityPlan plan = CapacityPlan.of(weighted, HERE, COSTS);
        assertEquals("open files: 22,500 in one process, but one may hold 18,976 here (open-file limit 20,000; split "
                + "them with controller --workers 2 or more)", plan.refusal());
        assertTrue(plan.lines().contains("ports: 11,250 per source address (4 given), of 28,232 ephemeral"),
                plan.lines().toString());
    }

    @Test
    void moreMemoryThanTheMachineHasIsRefused() {
        CapacityPlan plan = CapacityPlan.of(local(2_000_000, 120, 1, 100, 0), HERE, COSTS);
        assertTrue(plan.refusal().startsWith("memory: about ") && plan.refusal().contains("(generator 19.2 GiB, ")
                && plan.refusal().endsWith("kernel 14.9 GiB) needed, but this machine has 24.0 GiB"), plan.refusal());
    }

    @Test
    void aRampLongerThanTheRunIsRefused() {
        CapacityPlan plan = CapacityPlan.of(local(10_000, 1, 1, 0, 100), HERE, COSTS);
        assertEquals("connect time: 10,000 connections at 100/s take 100.0 s, longer than the run's 90.0 s (raise "
                + "--connect-rate, --warmup or --duration)", plan.refusal());
    }

    @Test
    void onKubernetesPodsAndNodesAreCountedAndAPodTooSmallIsRefused() {
        Demand tenMillion = new Demand(10_000_000, 500, 20_000, 1, false, Protocol.TCP, 0, 0, Duration.ofMinutes(5), Duration.ofMinutes(5),
                true, true, 2L << 30);
        CapacityPlan plan = CapacityPlan.of(tenMillion, HERE, COSTS);
        assertNull(plan.refusal(), plan.lines().toString());
        assertTrue(plan.lines().contains("kubernetes: 500 worker pod(s), each needing about 252 MiB of the 2.0 GiB it "
                + "requests; 32 node(s) of 32.0 GiB for them"), plan.lines().toString());
        Demand oneTarget = new Demand(10_000_000, 25, 400_000, 1, false, Protocol.TCP, 0, 0, Duration.ofMinutes(5), Duration.ofMinutes(5),
                true, true, 8L << 30);
        assertEquals("ports: 400,000 connections per (pod, target) pair, but the ephemeral range has 28,232 (use "
                + "--workers 355 or more, or more targets)", CapacityPlan.of(oneTarget, HERE, COSTS).refusal());
        Demand crowded = new Demand(10_000_000, 25, 400_000, 20, false, Protocol.TCP, 0, 0, Duration.ofMinutes(5), Duration.ofMinutes(5),
                true, true, 2L << 30);
        assertEquals("memory: each worker pod needs about 3.1 GiB for 400,000 connections, more than the 2.0 GiB it "
                + "requests (raise --worker-memory or --workers)", CapacityPlan.of(crowded, HERE, COSTS).refusal());
    }

    @Test
    void theMachinesLimitsAreReadFromProc(@TempDir Path dir) throws Exception {
        Path range = Files.writeString(dir.resolve("range"), "32768\t60999\n");
        Path meminfo = Files.writeString(dir.resolve("meminfo"), "MemTotal:       24576000 kB\nMemFree: 1 kB\n");
        assertEquals(28_232, Limits.ephemeralPorts(range));
        assertEquals(24_576_000L * 1024, Limits.memoryBytes(meminfo));
        assertEquals(Limits.DEFAULT_EPHEMERAL_PORTS, Limits.ephemeralPorts(dir.resolve("missing")));
        assertEquals(-1, Limits.memoryBytes(dir.resolve("missing")));
    }
}
