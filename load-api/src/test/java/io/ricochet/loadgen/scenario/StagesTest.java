package io.ricochet.loadgen.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.engine.Targets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Stages as data: their arithmetic, their text, and how a scenario takes, checks, writes, sends and splits them. */
class StagesTest {
    private static final long S = 1_000_000_000L;

    private static Scenario.Builder echo() {
        return Scenario.builder(Command.ECHO).target(Targets.parse("127.0.0.1:7000"));
    }

    @Test
    void rampsStepsAndTheirInverse() {
        Stages st = Values.stages("0:10s,20k:30s,20k:1m,0:10s");
        assertEquals(Duration.ofSeconds(110), st.total());
        assertEquals(Stages.Kind.RATE, st.kind());
        assertEquals(0, st.countBy(10 * S));
        assertEquals(10_000, st.targetAt(25 * S), 1e-6);
        // Half way up a ramp from 0 to 20k over 30 s: a quarter of its 300,000.
        assertEquals(75_000, st.countBy(25 * S), 1e-6);
        assertEquals(300_000 + 1_200_000 + 100_000, st.countBy(110 * S), 1e-6);
        for (double n : new double[] {0.5, 1, 75_000, 299_999.5, 300_000.5, 1_234_567, 1_599_999.5}) {
            assertEquals(n, st.countBy(st.nanosOf(n)), 1e-3 * Math.max(1, n / 1e6), "count " + n);
        }
        assertEquals(Long.MAX_VALUE, st.nanosOf(1_600_000.5), "nothing is due after the end");

        Stages steps = Values.stages("5k:2s:step,10k:2s:step,2k:1s");
        assertEquals(5_000, steps.targetAt(0), 1e-9);
        assertEquals(10_000, steps.targetAt(2 * S), 1e-9);
        assertEquals(6_000, steps.targetAt(4 * S + S / 2), 1e-9);
        assertEquals(10_000 + 20_000 + 6_000, steps.countBy(5 * S), 1e-6);
        assertEquals(2 * S + S / 2, steps.nanosOf(15_000));
    }

    @Test
    void theTextReadsBackExactlyAndScalesAndSplits() {
        Stages st = Values.stages(" 0:10s, 1.5k/s:1m30s:STEP ,20000:500ms");
        assertEquals("0:10s,1500:1m30s:step,20000:500ms", st.format());
        assertEquals(st, Values.stages(st.format()));
        assertEquals("0:10s,500:1m30s:step,6666.666666666666:500ms", st.scaled(1 / 3.0).format());
        assertEquals(st.scaled(1 / 3.0), Values.stages(st.scaled(1 / 3.0).format()));
        Stages held = Values.stages("100conns:30s,10conn:5m");
        assertEquals(Stages.Kind.CONNECTIONS, held.kind());
        assertEquals("100conns:30s,10conns:5m", held.format());
        assertEquals(100, held.peak());
        // A bare 0 is of either kind.
        assertEquals("0conns:10s,100conns:30s", Values.stages("0:10s,100conns:30s").format());
        assertEquals("0:10s,100:30s", Values.stages("0:10s,100:30s").format());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|stages: none (expected:",
        "20k|stages: 20k (expected:",
        "20k:0s|stages: 20k:0s (expected:",
        "20k:-1s|stages: 20k:-1s (expected:",
        "20k:10s:ramp|stages: 20k:10s:ramp (expected:",
        "lots:10s|stages: lots:10s (expected:",
        "0:10s,0:5s|stages: 0:10s,0:5s (expected:",
        "10:1s,5conns:1s|stages: 10:1s,5conns:1s (expected: all rates or all connections)",
        "1.5conns:1s|stages: 1.5conns:1s (expected:",
    })
    void badStagesAreOneLineNamingThem(String text, String start) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Values.stages(text));
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void stagesSetTheDurationTheConnectionsAndNoWarmup() {
        Scenario rate = echo().connections(40).stages(Values.stages("1k:10s,1k:20s")).build();
        assertEquals(Duration.ofSeconds(30), rate.duration());
        assertTrue(rate.openLoop());
        assertEquals(Duration.ZERO, rate.effectiveWarmup());
        assertEquals(40, rate.connections());

        Scenario held = Scenario.builder(Command.MASSIVE).target(Targets.parse("127.0.0.1:7000"))
                .stages(Values.stages("300conns:10s,300conns:1m")).build();
        assertEquals(300, held.connections());
        assertEquals(0, held.connectRate(), "massive's default connect ramp gives way to the stages");
        assertEquals(0.04, held.perConnectionRate());
        // A duration that agrees is fine, whichever was set first.
        assertEquals(rate, echo().duration(Duration.ofSeconds(30)).connections(40)
                .stages(Values.stages("1k:10s,1k:20s")).build());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "rate|stages with rate (expected: one of them; the stages set the rate)",
        "warmup|stages with warmup (expected: one of them; the first stage is the ramp a warmup would be; its intervals are measured)",
        "requests|stages with requests (expected: one of them; the stages end the run)",
        "duration|duration: 10s (expected: none with stages, or theirs, 30s)",
        "connections|connections: 10 (expected: none with stages, or theirs, 300)",
        "connect_rate|stages with connect_rate (expected: one of them; the stages are the connect ramp)",
        "rpc|stages of rates with command rpc (expected: echo)",
    })
    void whatStagesSetCannotBeGivenBesides(String what, String message) {
        Scenario.Builder b = switch (what) {
            case "rate" -> echo().rate(1000).stages(Values.stages("1k:10s,1k:20s"));
            case "warmup" -> echo().warmup(Duration.ofSeconds(2)).stages(Values.stages("1k:10s,1k:20s"));
            case "requests" -> echo().requests(100).stages(Values.stages("1k:10s,1k:20s"));
            case "duration" -> echo().duration(Duration.ofSeconds(10)).stages(Values.stages("1k:10s,1k:20s"));
            case "connections" -> echo().connections(10).stages(Values.stages("300conns:10s,300conns:20s"));
            case "connect_rate" -> echo().connectRate(50).stages(Values.stages("300conns:10s,300conns:20s"));
            default -> Scenario.builder(Command.RPC).target(Targets.parse("127.0.0.1:7100"))
                    .stages(Values.stages("1k:10s"));
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        String shown = e instanceof ScenarioException s ? s.render(key -> key) : e.getMessage();
        assertEquals(message, shown);
    }

    @Test
    void aFileAndAWorkersMessageCarryThemExactly() {
        Scenario s = echo().connections(20).stages(Values.stages("0:5s,2.5k:10s,2.5k:10s:step")).build();
        String yaml = ScenarioFiles.yaml(s);
        assertTrue(yaml.contains("stages:\n- 0:5s\n- 2500:10s\n- 2500:10s:step\n"), yaml);
        assertEquals(s, ScenarioFiles.read("s.yaml", yaml, null));
        // What the stages imply is not written, so the printed file takes other stages as it is.
        assertTrue(!yaml.contains("duration:"), yaml);
        Scenario other = ScenarioFiles.read("s.yaml", yaml.replace("2500:10s:step", "2500:1m:step"), null);
        assertEquals(Duration.ofSeconds(75), other.duration());
        String massive = ScenarioFiles.yaml(Scenario.builder(Command.MASSIVE).target(Targets.parse("127.0.0.1:7000"))
                .stages(Values.stages("300conns:10s")).build());
        assertTrue(!massive.contains("connections:") && !massive.contains("connect_rate:"), massive);
        assertEquals(s, ScenarioFiles.read("s.yaml", "command: echo\ntarget: 127.0.0.1:7000\nconnections: 20\n"
                + "stages: 0:5s,2.5k:10s,2.5k:10s:step\n", null));
        Scenario shard = s.shard(1, new double[] {1, 3});
        assertEquals(shard, ScenarioMessages.decode(ScenarioMessages.encode(shard).toByteArray()));
        assertNull(ScenarioMessages.decode(ScenarioMessages.encode(echo().build().shard(0, new double[] {1}))
                .toByteArray()).stages());
    }

    @Test
    void workersShareARateScheduleByWeightAndAConnectionScheduleInCounts() {
        Scenario rate = echo().connections(40).stages(Values.stages("0:10s,20k:30s,20k:1m")).build();
        double[] weights = {1, 1, 2};
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            Scenario shard = rate.shard(i, weights);
            assertEquals(rate.duration(), shard.duration());
            sum += shard.stages().countBy(100 * S);
        }
        assertEquals(rate.stages().countBy(100 * S), sum, 1e-6);

        Scenario held = echo().stages(Values.stages("10conns:10s,7conns:10s:step,1conns:10s")).build();
        long[][] targets = new long[3][];
        for (int i = 0; i < 3; i++) {
            Scenario shard = held.shard(i, weights);
            targets[i] = shard.stages().list().stream().mapToLong(x -> (long) x.target()).toArray();
            assertEquals(Arrays.stream(targets[i]).max().orElseThrow(), shard.connections());
        }
        for (int stage = 0; stage < 3; stage++) {
            long total = 0;
            for (long[] t : targets) {
                total += t[stage];
            }
            assertEquals((long) held.stages().list().get(stage).target(), total, "stage " + stage);
        }
        assertEquals(10, held.shard(2, weights).firstConnection() + held.shard(2, weights).connections()
                - held.shard(0, weights).firstConnection());
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> echo().stages(Values.stages("1conns:10s")).build().shard(1, new double[] {1, 1}));
        assertTrue(e.getMessage().contains("leaves worker 1 none"), e.getMessage());
    }
}
