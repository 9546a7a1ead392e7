package io.ricochet.loadgen.distributed;

import static io.ricochet.loadgen.distributed.FakeWorker.done;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcStatus;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A controller's run says in its summary.json where each worker ran, as the worker said in its hello. */
@Timeout(60)
class ControllerRunMetadataTest {

    @Test
    void eachWorkersHostIsInTheMergedSummary(@TempDir Path report) throws Exception {
        try (ControllerRun run = new ControllerRun(2, report)) {
            FakeWorker current = run.connect();
            current.accepted(Coordination.HELLO, Hello.newBuilder().setIndex(0).setHost("worker-a").setPid(11)
                    .setCores(8).setMemoryBytes(17_179_869_184L).setJvmVendor("Eclipse Adoptium").setJvmVersion("17.0.9+9")
                    .addJvmFlags("-Xmx2g").addJvmFlags("-XX:+UseParallelGC").build());
            // A worker built before the host fields: its name alone.
            FakeWorker older = run.connect();
            older.accepted(Coordination.HELLO, Hello.newBuilder().setIndex(1).setHost("worker-b").setPid(12).build());
            current.ready(0);
            older.ready(1);
            current.awaitStart();
            older.awaitStart();
            current.accepted(Coordination.DONE, done(0));
            older.accepted(Coordination.DONE, done(1));
            assertEquals(0, run.summary().refusedInputs());
        }
        JsonNode stamp = ReportWriter.JSON.readTree(report.resolve("summary.json").toFile()).get("run");
        JsonNode workers = stamp.get("workers");
        assertEquals(2, workers.size(), stamp.toString());

        JsonNode a = workers.get(0);
        assertEquals(0, a.get("worker").asInt());
        assertEquals("worker-a", a.get("host").get("name").asText());
        assertEquals(8, a.get("host").get("cores").asInt());
        assertEquals(17_179_869_184L, a.get("host").get("memory_bytes").asLong());
        assertEquals("Eclipse Adoptium", a.get("jvm").get("vendor").asText());
        assertEquals("17.0.9+9", a.get("jvm").get("version").asText());
        assertEquals("[\"-Xmx2g\",\"-XX:+UseParallelGC\"]", a.get("jvm").get("flags").toString());

        JsonNode b = workers.get(1);
        assertEquals(1, b.get("worker").asInt());
        assertEquals("worker-b", b.get("host").get("name").asText());
        assertEquals(0, b.get("host").get("cores").asInt(), "unknown");
        assertEquals(-1, b.get("host").get("memory_bytes").asLong(), "unknown");
        assertFalse(b.has("jvm"), b.toString());

        // The controller's own host is still the run's host; config.json, written before any worker joined, has none.
        assertEquals(Runtime.getRuntime().availableProcessors(), stamp.get("host").get("cores").asInt());
        JsonNode config = ReportWriter.JSON.readTree(report.resolve("config.json").toFile()).get("run");
        assertFalse(config.has("workers"), config.toString());
    }

    @Test
    void aHelloWithAHostOutOfRangeIsRefused() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.connect();
            List<Hello> bad = List.of(
                    Hello.newBuilder().setIndex(0).setHost("w").setCores(-1).build(),
                    Hello.newBuilder().setIndex(0).setHost("w").setCores(CoordinationService.MAX_CORES + 1).build(),
                    Hello.newBuilder().setIndex(0).setHost("w").setMemoryBytes(-5).build(),
                    Hello.newBuilder().setIndex(0).setHost("w")
                            .addAllJvmFlags(Collections.nCopies(CoordinationService.MAX_JVM_FLAGS + 1, "-X")).build(),
                    Hello.newBuilder().setIndex(0).setHost("w")
                            .setJvmVersion("9".repeat(CoordinationService.MAX_JVM_CHARS + 1)).build());
            for (Hello hello : bad) {
                RpcException e = worker.refused(Coordination.HELLO, hello, RpcStatus.INVALID_ARGUMENT);
                assertTrue(e.detail().startsWith("worker 0: "), e.detail());
            }
            // Refused whole: the index is still free.
            worker.hello(0);
        }
    }

    /** What a worker says in its hello is what a single run of its own would stamp, within the controller's bounds. */
    @Test
    void aWorkersOwnFlagsAreKeptWithinTheControllersBounds() {
        RunMetadata.Jvm jvm = new RunMetadata.Jvm("v", "1",
                Collections.nCopies(CoordinationService.MAX_JVM_FLAGS * 2, "-Dx=" + "y".repeat(10)));
        assertEquals(CoordinationService.MAX_JVM_FLAGS, WorkerSession.flagsWithinBounds(jvm).size());
        RunMetadata.Jvm huge = new RunMetadata.Jvm("v", "1", List.of("-Da=" + "y".repeat(CoordinationService.MAX_JVM_CHARS),
                "-Xmx1g"));
        assertEquals(List.of(), WorkerSession.flagsWithinBounds(huge));
        // This test JVM's few flags go whole.
        assertEquals(RunMetadata.thisJvm().flags(), WorkerSession.flagsWithinBounds(RunMetadata.thisJvm()));
    }
}
