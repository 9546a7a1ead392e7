package io.ricochet.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.engine.Latencies;
import io.ricochet.loadgen.engine.Load;
import io.ricochet.loadgen.engine.LoadFacts;
import io.ricochet.loadgen.engine.Measurement;
import io.ricochet.loadgen.engine.Progress;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.engine.Schedule;
import io.ricochet.loadgen.stats.RunStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run around the engine: prepared first, described in config.json, every interval handed over, the summary too. */
class RunsTest {

    @Test
    void aRunIsPreparedMeasuredWrittenAndHandedOver(@TempDir Path dir) throws Exception {
        List<String> calls = new ArrayList<>();
        List<Interval> handedOver = new ArrayList<>();
        Object[] finished = new Object[1];
        Load load = new Load() {
            long sent;

            @Override
            public void prepare() {
                calls.add("prepare");
            }

            @Override
            public void start() {
                calls.add("start");
            }

            @Override
            public RunStats.Counts counts() {
                sent += 10;
                return new RunStats.Counts(sent, sent, 0, 0, 0, 0, 0, 0, 0);
            }

            @Override
            public int openConnections() {
                return 1;
            }

            @Override
            public void drainLatencies(Latencies into) {
                into.service().recordValue(100);
            }

            @Override
            public boolean openLoop() {
                return false;
            }

            @Override
            public boolean finished() {
                return sent >= 30;
            }

            @Override
            public boolean awaitFinished(long nanos) {
                return finished();
            }

            @Override
            public void stopSending() {
                calls.add("stop");
            }

            @Override
            public void drain(Duration timeout) {
                calls.add("drain");
            }

            @Override
            public void describe(Map<String, Object> config) {
                config.put("described", true);
            }

            @Override
            public LoadFacts facts() {
                return new LoadFacts("nio", "closed_loop", null, null, null, null, 0, Map.of(), List.of());
            }

            @Override
            public Progress progress() {
                return new Progress.Counted(() -> sent, 30);
            }

            @Override
            public void close() {
            }
        };
        RunHooks hooks = new RunHooks() {
            @Override
            public void interval(Interval data) {
                handedOver.add(data);
            }

            @Override
            public void finished(Object summary) {
                finished[0] = summary;
            }
        };
        Measurement summary = Runs.measure(load, Schedule.untilFinished(Duration.ofMillis(1), Duration.ofSeconds(1)),
                new RunOptions("test", null, dir, null, Map.of("command", "test"), hooks), (m, server, report) -> m);
        assertEquals(List.of("prepare", "start", "stop", "drain"), calls);
        assertEquals(summary, finished[0], "the summary is handed over");
        assertEquals(summary.total().ok(), handedOver.stream().mapToLong(i -> i.delta().ok()).sum());
        String config = Files.readString(dir.resolve("config.json"));
        assertTrue(config.contains("\"described\" : true"), "the load describes itself in config.json: " + config);
        assertTrue(Files.size(dir.resolve("summary.json")) > 0);
    }
}
