package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.loadgen.api.LoadResult;
import io.ricochet.loadgen.api.LoadTest;
import io.ricochet.loadgen.api.LocalWorkers;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV service load-tested from JUnit on 4 local worker JVMs: the workload by its provider name (each worker makes
 * its own from this class path), the scenario split over them, their histograms merged exactly, and the thresholds
 * judged on the merged run. Then the same test written as a scenario file runs the same way.
 */
@Timeout(180)
class KvServiceWorkersIT {
    private static KvServer server;

    @BeforeAll
    static void start() {
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000_000));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void fourWorkersRunOneTestAndItsThresholdsAreJudgedOnTheMergedRun(@TempDir Path report) throws Exception {
        LoadResult merged = LoadTest.tcp(server.tcpAddress())
                .workload("kv-text", Map.of("keys", "100"))
                .connections(8).pipeline(2).requests(8_000)
                .workers(LocalWorkers.of(4).jvmArgs("-Xmx256m"))
                .threshold("bad==0").threshold("errors==0").threshold("p99<2s")
                .report(report)
                .run();
        merged.assertThresholds();
        assertEquals(8_000, merged.ok(), "each worker's share of the requests, merged: " + merged);
        assertEquals(4, merged.workers().size(), String.join("\n", merged.workers()));
        assertEquals(merged.ok(), merged.latency().count(), "every reply's latency in the merged histogram");
        JsonNode summary = new ObjectMapper().readTree(report.resolve("summary.json").toFile());
        long byWorkers = 0;
        for (int i = 0; i < 4; i++) {
            byWorkers += new ObjectMapper().readTree(report.resolve("workers").resolve(Integer.toString(i))
                    .resolve("summary.json").toFile()).get("ok").asLong();
        }
        assertEquals(summary.get("ok").asLong(), byWorkers, "the merged count is the workers' sum");
    }

    @Test
    void aScenarioFileRunsOnWorkersAsItRunsAlone(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kv.yaml");
        Files.writeString(file, """
                command: echo
                target: %s
                connections: 4
                requests: 2000
                workload:
                  name: kv-text
                  params:
                    keys: "50"
                thresholds:
                  - bad==0
                """.formatted(server.tcpAddress().getHostString() + ":" + server.tcpAddress().getPort()));
        Scenario scenario = ScenarioFiles.read(file, null);
        LoadResult alone = LoadTest.of(scenario).run();
        java.util.Set<Path> logsBefore = workerLogDirs();
        LoadResult twoWorkers = LoadTest.of(scenario).workers(LocalWorkers.of(2)).run();
        assertEquals(logsBefore, workerLogDirs(), "a clean run without a report leaves no worker logs behind");
        alone.assertThresholds();
        twoWorkers.assertThresholds();
        assertEquals(2_000, alone.ok(), alone.toString());
        assertEquals(2_000, twoWorkers.ok(), twoWorkers.toString());
    }

    private static java.util.Set<Path> workerLogDirs() throws java.io.IOException {
        try (java.util.stream.Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("ricochet-workers"))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    /** A workload no worker can make is refused here, before any worker starts, naming the key. */
    @Test
    void anUnknownWorkloadIsRefusedBeforeAnyWorkerStarts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadTest.tcp(
                server.tcpAddress()).workload("kv-txt", Map.of()).workers(LocalWorkers.of(4)).run());
        assertTrue(e.getMessage().startsWith("workload.name kv-txt: no workload jar provides it (found: kv-text, kv-rpc)"), e.getMessage());
    }
}
