package io.ricochet.loadgen.cli;

import static io.ricochet.loadgen.cli.MockCluster.NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.ricochet.examples.kv.KvServer;
import io.ricochet.examples.kv.KvServerConfig;
import io.ricochet.examples.kv.WorkloadImage;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example's workload on Kubernetes as docs/kubernetes.md builds it: an image FROM Ricochet's with the workload jar
 * in its workloads directory, the controller's Indexed Job on the Fabric8 mock server, and a stand-in kubelet running
 * each pod with the image's entrypoint. A pod whose image lacks the jar says so, and the run stops on it.
 */
@Timeout(240)
@EnableKubernetesMockClient(crud = true)
class KubernetesWorkloadIT {
    KubernetesClient client;
    private MockCluster cluster;
    private KvServer server;

    @BeforeEach
    void start() {
        cluster = new MockCluster(client);
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000_000));
    }

    @AfterEach
    void stop() {
        server.close();
        cluster.close();
    }

    private CompletableFuture<Cli.Result> controller(String job) {
        String target = "127.0.0.1:" + server.tcpAddress().getPort();
        return CompletableFuture.supplyAsync(() -> Cli.run("controller", "--workers", "2", "--executor", "kubernetes",
                "--namespace", NS, "--job-name", job, "--image", "example/kv-load:1", "--bind", "127.0.0.1",
                "--advertise", "127.0.0.1", "--start-timeout", "90s", "echo", "--target", target, "--workload", "kv-text",
                "--connections", "4", "--duration", "2s", "--json"));
    }

    private KubernetesClient kubelet() {
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration()).withUserAgent("kubelet-stand-in")
                        .build()).build();
    }

    @Test
    void podsOfAnImageWithTheWorkloadJarRunItAndTheRunIsMerged(@TempDir Path dir) throws Exception {
        Path image = WorkloadImage.layOut(dir.resolve("image"), true);
        CompletableFuture<Cli.Result> run = controller("kv-load-1");
        try (KubernetesClient kubelet = kubelet();
                KubeletStandIn standIn = new KubeletStandIn(kubelet, NS, dir.resolve("pods"),
                        WorkloadImage.entrypoint(image))) {
            standIn.runJob(60_000);
            standIn.awaitExits(120_000);
            Cli.Result r = run.get(120, TimeUnit.SECONDS);
            assertEquals(0, r.exit(), r.err() + r.out());
            JsonNode merged = r.json().get("merged");
            assertTrue(merged.get("ok").asLong() > 0, r.out());
            assertEquals(0, merged.get("bad").asLong(), r.out());
            assertEquals(merged.get("requests").asLong(), merged.get("ok").asLong(), "every value read back right");
        }
    }

    @Test
    void aPodWhoseImageLacksTheJarSaysSoAndTheRunStopsOnIt(@TempDir Path dir) throws Exception {
        Path plain = WorkloadImage.layOut(dir.resolve("plain"), false);
        CompletableFuture<Cli.Result> run = controller("kv-load-2");
        try (KubernetesClient kubelet = kubelet();
                KubeletStandIn standIn = new KubeletStandIn(kubelet, NS, dir.resolve("pods"),
                        WorkloadImage.entrypoint(plain))) {
            standIn.runJob(60_000);
            standIn.awaitExits(120_000);
            Cli.Result r = run.get(120, TimeUnit.SECONDS);
            assertEquals(1, r.exit(), r.err() + r.out());
            String problems = r.json().get("problems").toString();
            assertTrue(problems.contains("FAILED: did not run: cannot run its shard: invalid option value: --workload "
                    + "kv-text: no workload jar provides it"), problems);
            assertEquals(0, r.json().get("merged").get("requests").asLong(), "no load was sent");
        }
    }
}
