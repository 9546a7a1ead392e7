package io.ricochet.loadgen.cli;

import static io.ricochet.loadgen.cli.MockCluster.NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.ricochet.loadgen.k8s.JobFactory;
import io.ricochet.loadgen.k8s.KubernetesExecutor;
import io.ricochet.loadgen.k8s.RunVerdict;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The Kubernetes executor against the Fabric8 mock server in CRUD mode, with a stand-in kubelet that runs
 * each worker of the Job as a JVM of its own.
 */
@Timeout(180)
@EnableKubernetesMockClient(crud = true)
class KubernetesControllerIT {
    private static final String STAND_IN = "kubelet-stand-in";

    KubernetesMockServer server;
    KubernetesClient client;
    private MockCluster cluster;

    @BeforeEach
    void pointTheControllerAtTheMockServer() {
        cluster = new MockCluster(client);
    }

    @AfterEach
    void restore() {
        cluster.close();
    }

    private KubernetesClient standInClient() {
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration()).withUserAgent(STAND_IN).build()).build();
    }

    @Test
    void runsTheWorkersAsAnIndexedJobAndDeletesItAfterwards(@TempDir Path logs) throws Exception {
        // The controller's own Job, as k8s/ makes it: the verdict is written on it.
        client.batch().v1().jobs().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder()
                .withNewMetadata().withName("ricochet-load-controller").endMetadata().withNewSpec().withNewTemplate()
                .withNewSpec().addNewContainer().withName("controller").withImage("ricochet/ricochet").endContainer()
                .withRestartPolicy("Never").endSpec().endTemplate().endSpec().build()).create();
        CompletableFuture<Cli.Result> run = CompletableFuture.supplyAsync(() -> Cli.run("controller", "--workers", "2",
                "--executor", "kubernetes", "--namespace", NS, "--job-name", "load-1", "--image", "example/lg:1",
                "--verdict-job", "ricochet-load-controller",
                "--ttl", "300", "--worker-cpu", "500m", "--worker-memory", "1Gi", "--instance", "ci", "--bind", "127.0.0.1",
                "--advertise", "127.0.0.1", "--start-timeout", "60s",
                "echo", "--target", cluster.target(), "--connections", "20", "--duration", "2s", "--json"));
        try (KubernetesClient kubelet = standInClient(); KubeletStandIn standIn = new KubeletStandIn(kubelet, NS, logs)) {
            standIn.runJob(60_000);
            Job job = standIn.job;
            assertEquals("Indexed", job.getSpec().getCompletionMode());
            assertEquals(2, job.getSpec().getCompletions());
            assertEquals(2, job.getSpec().getParallelism());
            assertEquals(0, job.getSpec().getBackoffLimit());
            assertEquals(300, job.getSpec().getTtlSecondsAfterFinished());
            Map<String, String> labels = job.getMetadata().getLabels();
            assertEquals("ricochet", labels.get(JobFactory.LABEL_NAME));
            assertEquals(JobFactory.COMPONENT, labels.get(JobFactory.LABEL_COMPONENT));
            assertEquals("ci", labels.get(JobFactory.LABEL_INSTANCE));
            assertEquals("load-1", labels.get(JobFactory.LABEL_RUN));
            assertEquals(labels, job.getSpec().getTemplate().getMetadata().getLabels());
            var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals("example/lg:1", container.getImage());
            assertEquals("500m", container.getResources().getLimits().get("cpu").toString());
            assertEquals("1Gi", container.getResources().getRequests().get("memory").toString());
            // The args parse with the load generator's own parser, as the worker the plan expects.
            CommandLine cli = LoadGeneratorMain.newCommandLine();
            WorkerCommand worker = (WorkerCommand) cli.parseArgs(container.getArgs().toArray(String[]::new))
                    .subcommand().commandSpec().userObject();
            assertEquals("127.0.0.1", worker.controller.getHostString());
            assertNull(worker.index, "the index comes from JOB_COMPLETION_INDEX");
            standIn.awaitExits(120_000);
        }
        Cli.Result r = run.get(120, TimeUnit.SECONDS);
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("merged").get("ok").asLong() > 0, s.toString());
        assertEquals(20, s.get("merged").get("connections").asInt());
        // Each worker got its shard: half the connections, its own seed.
        assertEquals("DONE", s.get("worker_rows").get(0).get("state").asText());
        assertEquals("DONE", s.get("worker_rows").get(1).get("state").asText());
        assertNull(client.batch().v1().jobs().inNamespace(NS).withName("load-1").get(), "the Job is deleted on exit");
        // Before this test reads the verdict back with calls of its own.
        assertControllerCallsOnlyWhatTheRoleGrants();
        // The verdict, where kubectl shows it: the Job's annotation, the ConfigMap it names, an Event on the Job.
        Job controller = client.batch().v1().jobs().inNamespace(NS).withName("ricochet-load-controller").get();
        assertEquals("passed", controller.getMetadata().getAnnotations().get("ricochet.io/verdict"));
        String name = controller.getMetadata().getAnnotations().get("ricochet.io/verdict-configmap");
        var verdict = client.configMaps().inNamespace(NS).withName(name).get();
        assertEquals("passed", verdict.getData().get("verdict"));
        assertEquals(s.get("merged").get("ok").asLong(), Cli.JSON.readTree(verdict.getData().get("summary.json"))
                .get("merged").get("ok").asLong());
        assertEquals(1, client.configMaps().inNamespace(NS).withLabel("ricochet.io/job", "ricochet-load-controller")
                .list().getItems().size());
        var events = client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "ricochet-load-controller".equals(e.getInvolvedObject().getName())).toList();
        assertEquals(1, events.size());
        assertEquals("RunPassed", events.get(0).getReason());
        assertTrue(events.get(0).getMessage().startsWith("passed: "), events.get(0).getMessage());
    }

    /** Every request the controller made maps to a verb on a resource the Role grants. */
    private void assertControllerCallsOnlyWhatTheRoleGrants() throws InterruptedException {
        Set<String> used = new HashSet<>();
        RecordedRequest request;
        while ((request = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
            if (STAND_IN.equals(request.getHeader("User-Agent")) || request.getPath().contains("/namespaces/" + NS) == false) {
                continue;
            }
            used.add(permission(request));
        }
        Set<String> granted = new HashSet<>();
        KubernetesExecutor.PERMISSIONS.forEach((resource, verbs) -> verbs.forEach(v -> granted.add(resource + ":" + v)));
        RunVerdict.PERMISSIONS.forEach((resource, verbs) -> verbs.forEach(v -> granted.add(resource + ":" + v)));
        assertTrue(granted.containsAll(used), "used " + used + ", granted " + granted);
        assertTrue(used.containsAll(List.of("jobs:create", "jobs:delete", "pods:list", "pods:watch", "secrets:create",
                "secrets:delete", "jobs:patch", "configmaps:create", "events:create")), used.toString());
    }

    private static String permission(RecordedRequest r) {
        String path = r.getPath();
        String resource = path.contains("/pods") ? (path.contains("/log") ? "pods/log" : "pods")
                : path.contains("/jobs") ? "jobs" : path.contains("/secrets") ? "secrets"
                : path.contains("/configmaps") ? "configmaps" : path.contains("/events") ? "events" : path;
        boolean named = path.matches(".*/(pods|jobs|secrets|configmaps|events)/[^/?]+.*");
        String verb = switch (r.getMethod()) {
            case "POST" -> "create";
            case "DELETE" -> "delete";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            default -> path.contains("watch=true") ? "watch" : named ? "get" : "list";
        };
        return resource + ":" + verb;
    }
}
