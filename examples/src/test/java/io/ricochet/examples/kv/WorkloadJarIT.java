package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example's workload jar, as the build made it, run by the generator's jar as a user runs them: from an image's
 * workloads directory, from --workload-jar, over RPC with code and without, and split over two local workers whose
 * figures the controller merges exactly. Every reply is checked by the workload: every value read back.
 */
@Timeout(300)
class WorkloadJarIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private static Path image;
    private static KvServer server;

    @BeforeAll
    static void start() throws Exception {
        image = WorkloadImage.layOut(dir.resolve("image"), true);
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000_000));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String address(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    private static JsonNode ok(WorkloadImage.Run run) throws Exception {
        assertEquals(0, run.exit(), run.err() + run.out());
        return JSON.readTree(run.out());
    }

    @Test
    void theImagesWorkloadsDirectoryIsSearchedAlone() throws Exception {
        JsonNode s = ok(WorkloadImage.run(image, dir.resolve("logs"), 120, "echo", "--target",
                address(server.tcpAddress()), "--workload", "kv-text", "--workload-param", "keys=50", "--connections", "4",
                "--pipeline", "4", "--duration", "2s", "--json"));
        assertTrue(s.get("ok").asLong() > 100, s.toString());
        assertEquals(0, s.get("bad").asLong(), s.toString());
        assertEquals(s.get("requests").asLong(), s.get("ok").asLong());
    }

    @Test
    void aJarGivenWithTheFlagRunsFromThePlainImage() throws Exception {
        Path plain = WorkloadImage.layOut(dir.resolve("plain"), false);
        JsonNode s = ok(WorkloadImage.run(plain, dir.resolve("logs"), 120, "rpc", "--target",
                address(server.rpcAddress()), "--workload-jar", WorkloadImage.WORKLOADS.toString(), "--workload", "kv-rpc",
                "--clients", "4", "--in-flight", "4", "--requests", "5000", "--json"));
        assertEquals(5000, s.get("received_ok").asLong(), s.toString());
    }

    /**
     * {@code --workload list} on every command that takes workloads, ramp's too; a jar named twice (here also by
     * another path to the same file, as one given with --workload-jar may also lie in the workloads directory) is
     * loaded once, not refused as a second provider of the same names.
     */
    @Test
    void listShowsWhatTheJarsHoldEachJarOnce() throws Exception {
        Path plain = WorkloadImage.layOut(dir.resolve("lister"), false);
        Path again = java.nio.file.Files.createSymbolicLink(dir.resolve("same-workloads.jar"),
                WorkloadImage.WORKLOADS.toAbsolutePath());
        for (String command : new String[] {"echo", "ramp", "crr", "rpc"}) {
            WorkloadImage.Run run = WorkloadImage.run(plain, dir.resolve("logs"), 60, command, "--workload-jar",
                    WorkloadImage.WORKLOADS.toString(), "--workload-jar", again.toString(), "--workload", "list");
            assertEquals(0, run.exit(), command + ": " + run.err());
            assertTrue(run.out().contains("kv-text  (") && run.out().contains("kv-rpc  ("), command + ": " + run.out());
            assertEquals(2, run.out().lines().count(), command + ": " + run.out());
        }
    }

    @Test
    void theRpcMethodsLoadWithNoCodeFromTheDescriptorSetTheBuildWrote() throws Exception {
        String[] common = {"rpc", "--target", address(server.rpcAddress()), "--proto", WorkloadImage.PROTOSET.toString(),
            "--clients", "2", "--requests", "1000", "--json"};
        JsonNode put = ok(WorkloadImage.run(image, dir.resolve("logs"), 120, concat(common, "--method", "kv.put",
                "--request-type", "ricochet.examples.kv.PutRequest", "--response-type", "ricochet.examples.kv.PutReply",
                "--data", "{\"key\": \"nocode-{{conn}}-{{seq}}\", \"value\": \"dmFsdWU=\"}")));
        assertEquals(1000, put.get("received_ok").asLong(), put.toString());
        JsonNode get = ok(WorkloadImage.run(image, dir.resolve("logs"), 120, concat(common, "--method", "kv.get",
                "--request-type", "ricochet.examples.kv.GetRequest", "--response-type", "ricochet.examples.kv.GetReply",
                "--data", "{\"key\": \"nocode-{{conn}}-{{seq}}\"}", "--expect", "{\"found\": true, \"value\": \"dmFsdWU=\"}")));
        assertEquals(1000, get.get("received_ok").asLong(), "every key the puts wrote read back: " + get);
    }

    @Test
    void twoLocalWorkersRunItAndTheControllerMergesThemExactly() throws Exception {
        Path report = dir.resolve("controller-report");
        JsonNode s = ok(WorkloadImage.run(image, dir.resolve("logs"), 180, "controller", "--workers", "2", "echo",
                "--target", address(server.tcpAddress()), "--workload", "kv-text", "--connections", "6", "--pipeline",
                "2", "--duration", "2s", "--report", report.toString(), "--json"));
        JsonNode merged = s.get("merged");
        assertEquals(0, merged.get("bad").asLong(), s.toString());
        assertTrue(merged.get("ok").asLong() > 100, s.toString());
        long ok = 0;
        long latencies = 0;
        for (int w = 0; w < 2; w++) {
            JsonNode row = s.get("worker_rows").get(w);
            assertEquals("DONE", row.get("state").asText(), row.toString());
            JsonNode own = JSON.readTree(report.resolve("workers").resolve(Integer.toString(w)).resolve("summary.json")
                    .toFile());
            assertEquals(own.get("ok").asLong(), row.get("ok").asLong(), "worker " + w + "'s own report and its row");
            assertEquals(0, own.get("bad").asLong());
            ok += own.get("ok").asLong();
            latencies += own.get("latency_us").get("count").asLong();
        }
        assertEquals(ok, merged.get("ok").asLong(), "the merge adds the workers' counts exactly");
        assertEquals(latencies, merged.get("latency_us").get("count").asLong(), "and their histograms");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
