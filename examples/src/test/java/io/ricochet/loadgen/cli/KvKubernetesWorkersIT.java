package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.ricochet.loadgen.api.LoadResult;
import io.ricochet.loadgen.api.LoadTest;
import io.ricochet.examples.kv.KvServer;
import io.ricochet.examples.kv.KvServerConfig;
import io.ricochet.loadgen.k8s.KubernetesWorkers;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV service load-tested from JUnit over {@link KubernetesWorkers}: the Fabric8 mock server stands in for the API
 * server, and a stand-in kubelet runs each pod of the Job as a JVM on this class path (so the pods find the kv-text
 * workload by name, as an image built FROM Ricochet's with the example's jar does). The twin of {@code
 * KvServiceWorkersIT}'s local workers; in package cli for the stand-in kubelet, which the controller's tests share.
 */
@Timeout(180)
@EnableKubernetesMockClient(crud = true)
class KvKubernetesWorkersIT {
    private static final String NS = "loadtest";

    KubernetesMockServer server;
    KubernetesClient client;
    private KvServer kv;

    @BeforeEach
    void startTheService() {
        kv = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000_000));
    }

    @AfterEach
    void stopTheService() {
        kv.close();
    }

    @Test
    void theKvServiceIsLoadedByAJobsPodsAndTheRunIsMerged(@TempDir Path logs) throws Exception {
        KubernetesWorkers workers = KubernetesWorkers.of(client, NS, "example/kv-load:1").pods(2)
                .workerResources("500m", "1Gi").coordination("127.0.0.1", 0, "127.0.0.1");
        CompletableFuture<LoadResult> run = CompletableFuture.supplyAsync(() -> {
            try {
                return LoadTest.tcp(kv.tcpAddress()).workload("kv-text", Map.of("keys", "100")).connections(4)
                        .requests(2_000).threshold("bad==0").threshold("errors==0").workers(workers).run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try (KubernetesClient kubelet = new KubernetesClientBuilder().withConfig(new ConfigBuilder(
                client.getConfiguration()).withUserAgent("kubelet-stand-in").build()).build();
                KubeletStandIn standIn = new KubeletStandIn(kubelet, NS, logs)) {
            standIn.runJob(60_000);
            Job job = standIn.job;
            assertEquals(2, job.getSpec().getCompletions());
            assertEquals("example/kv-load:1", job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
            standIn.awaitExits(120_000);
            LoadResult merged = run.get(120, TimeUnit.SECONDS);
            merged.assertThresholds();
            assertEquals(2_000, merged.ok(), merged.toString());
            assertEquals(2, merged.workers().size(), String.join("\n", merged.workers()));
            assertTrue(merged.problems().isEmpty(), String.join("\n", merged.problems()));
        }
    }
}
