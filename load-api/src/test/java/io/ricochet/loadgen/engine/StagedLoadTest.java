package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.scenario.Values;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.transport.server.RicochetServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stages drive a real load against a real server: a rate schedule sends what each stage's ramp or step is due and no
 * more, and a connection schedule opens, retires and reopens connections as its target moves, with no request failed
 * and no connection replaced behind its back.
 */
@Timeout(60)
class StagedLoadTest {
    private RicochetServer server;

    @BeforeEach
    void start() throws Exception {
        server = RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1").tcpPort(0)
                .transport(TransportKind.NIO).ioThreads(1).build()).handler(new ReverseEchoHandler())
                .meterRegistry(new SimpleMeterRegistry()).build().startAndAwait();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private List<Interval> run(LoadSpec spec) throws InterruptedException {
        List<Interval> intervals = new ArrayList<>();
        try (HeldConnections load = new HeldConnections(spec, PayloadWorkload.generated(1, 32, 32,
                Expectation.reversed()))) {
            load.prepare();
            new LoadDriver(new Schedule(Duration.ZERO, spec.duration(), spec.interval(), Duration.ofSeconds(5)),
                    new RunHooks() {
                    }, null).run(load, (interval, lengthS) -> intervals.add(new Interval(interval.index(),
                            interval.elapsedS(), interval.startMillis(), interval.endMillis(),
                            interval.openConnections(), interval.delta(), null, null, null, null,
                            interval.handshakeFailures())));
        }
        return intervals;
    }

    @Test
    void aRateScheduleSendsWhatEachRampAndStepIsDue() throws Exception {
        // Nothing for 1 s, a ramp to 2k/s over 1 s (1,000 due), 2k/s held (2,000), down to 500/s (1,250): 4,250.
        Stages stages = Values.stages("0:1s,2k:1s,2k:1s:step,500:1s");
        List<Interval> intervals = run(LoadSpec.builder(server.tcpAddress()).connections(10).pipeline(8)
                .stages(stages).duration(stages.total()).timeout(Duration.ofSeconds(5)).build());

        long ok = intervals.stream().mapToLong(i -> i.delta().ok()).sum();
        long failed = intervals.stream().mapToLong(i -> i.delta().errors() + i.delta().bad()).sum();
        assertEquals(0, failed);
        // All that is due, give or take the last request's tick at the very end.
        assertTrue(ok >= 4_245 && ok <= 4_250, ok + " requests (expected: 4,250 due)");
        assertEquals(0, intervals.get(0).delta().ok(), "the first stage is due nothing");
        // Each second's share, loosely (the machine is shared): a constant rate would give 1,062 in each.
        long[] due = {0, 1_000, 2_000, 1_250};
        for (int i = 1; i < 4; i++) {
            long got = intervals.get(i).delta().ok();
            assertTrue(Math.abs(got - due[i]) <= due[i] / 5, "interval " + i + ": " + got + " (due " + due[i] + ")");
        }
    }

    /** A connection retired during its Noise handshake finishes it before it closes: not a failed handshake. */
    @Test
    void aConnectionRetiredMidHandshakeIsNoFailedHandshake() throws Exception {
        NoiseKeyPair key = NoiseKeyPair.generate();
        try (RicochetServer noise = RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1").tcpPort(0)
                .transport(TransportKind.NIO).ioThreads(1).build()).handler(new ReverseEchoHandler())
                .noise(ServerNoiseConfig.of(key)).meterRegistry(new SimpleMeterRegistry()).build().startAndAwait()) {
            // Forty at once, all retired 20 ms later: most are still shaking hands then.
            Stages stages = Values.stages("40conns:20ms:step,0conns:1s:step");
            List<Interval> intervals = run(LoadSpec.builder(noise.tcpAddress()).connections(40).stages(stages)
                    .duration(stages.total()).timeout(Duration.ofSeconds(5))
                    .noise(ClientNoiseConfig.builder(key.publicKey()).build()).build());
            assertEquals(0, intervals.stream().mapToLong(Interval::handshakeFailures).sum());
            assertEquals(0, intervals.stream().mapToLong(i -> i.delta().errors() + i.delta().bad()).sum());
            assertEquals(0, intervals.get(intervals.size() - 1).openConnections(), "every one retired");
        }
    }

    @Test
    void aConnectionScheduleOpensRetiresAndReopensWithoutAStorm() throws Exception {
        // Up to 6 over half a second, held; at 1.5 s down to 2 at once, at 2.5 s up to 4 at once; intervals end between.
        Stages stages = Values.stages("6conns:500ms,6conns:1s,2conns:1s:step,4conns:1s:step");
        List<Interval> intervals = run(LoadSpec.builder(server.tcpAddress()).connections(6).pipeline(4)
                .stages(stages).duration(stages.total()).timeout(Duration.ofSeconds(5)).build());

        assertEquals(List.of(6, 2, 4), intervals.subList(0, 3).stream().map(Interval::openConnections).toList());
        long connects = intervals.stream().mapToLong(i -> i.delta().connects()).sum();
        long failed = intervals.stream().mapToLong(i -> i.delta().errors() + i.delta().bad()).sum();
        // Six, then two more for the last step: the four retired were neither replaced nor cut off mid-request.
        assertEquals(8, connects);
        assertEquals(0, failed);
        assertTrue(intervals.stream().allMatch(i -> i.delta().ok() > 0), "every interval answered");
    }
}
