package io.ricochet.loadgen.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.InetSocketAddress;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class KubernetesExecutorTest {
    private static final String NS = "ricochet";
    private static final InetSocketAddress CONTROLLER = new InetSocketAddress("127.0.0.1", 7200);

    KubernetesClient client;

    private static KubernetesSettings settings(String image, String ownerPod) {
        return new KubernetesSettings(NS, "job", image, 1, 60, "1", "1Gi", "test", true, ownerPod,
                ownerPod == null ? null : "uid-1");
    }

    /** A client of the mock server of its own, as the executor closes the one it is given. */
    private Supplier<KubernetesClient> mockClients() {
        return () -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build();
    }

    /** Observed: no cluster meant 42 s of retries, then "An error has occurred.". Now the cause, at once. */
    @Test
    void anUnreachableApiServerFailsTheLaunchNamingItAndTheCause() {
        Config unreachable = new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0)
                .withNamespace(NS).build();
        try (KubernetesExecutor executor = new KubernetesExecutor(settings("image", null),
                () -> new KubernetesClientBuilder().withConfig(unreachable).build())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> executor.launch(CONTROLLER, "secret"));
            assertTrue(e.getMessage().startsWith(
                    "cannot start the workers' Job through the Kubernetes API at https://127.0.0.1:1"), e.getMessage());
            assertTrue(e.getMessage().contains("ConnectException"), e.getMessage());
        }
    }

    /** The manifests set the image once (kustomize images:), on the controller's pod; its workers follow it. */
    @Test
    void withoutImageTheWorkersRunTheControllerPodsFirstContainersImage() {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("controller-x").endMetadata()
                .withNewSpec()
                    .addNewInitContainer().withName("wait").withImage("registry.example/init:1").endInitContainer()
                    .addNewContainer().withName("controller").withImage("registry.example/ricochet:1.2").endContainer()
                    .addNewContainer().withName("sidecar").withImage("registry.example/sidecar:3").endContainer()
                .endSpec().build()).create();
        try (KubernetesExecutor executor = new KubernetesExecutor(settings(null, "controller-x"), mockClients())) {
            executor.launch(CONTROLLER, "secret");
        }
        Job job = client.batch().v1().jobs().inNamespace(NS).withName("job").get();
        assertEquals("registry.example/ricochet:1.2", job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals("controller-x", job.getMetadata().getOwnerReferences().get(0).getName());
        assertEquals("uid-1", job.getMetadata().getOwnerReferences().get(0).getUid());
    }

    @Test
    void anImageGivenWinsAndOutsideAPodTheDefaultIsUsed() {
        try (KubernetesExecutor given = new KubernetesExecutor(settings("example/lg:1", null), mockClients())) {
            given.launch(CONTROLLER, "secret");
        }
        assertEquals("example/lg:1", image(client.batch().v1().jobs().inNamespace(NS).withName("job").get()));
        client.batch().v1().jobs().inNamespace(NS).withName("job").delete();
        try (KubernetesExecutor outside = new KubernetesExecutor(settings(null, null), mockClients())) {
            outside.launch(CONTROLLER, "secret");
        }
        assertEquals(KubernetesSettings.DEFAULT_IMAGE, image(client.batch().v1().jobs().inNamespace(NS).withName("job").get()));
    }

    /** POD_NAME names a pod the API does not have: no run on a guessed image, and nothing left behind. */
    @Test
    void aMissingOwnPodFailsTheLaunchBeforeAnythingIsCreated() {
        try (KubernetesExecutor executor = new KubernetesExecutor(settings(null, "gone"), mockClients())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> executor.launch(CONTROLLER, "secret"));
            assertEquals("no --image given, and this controller's pod ricochet/gone (POD_NAME) is not there to take the image from",
                    e.getMessage());
        }
        assertNull(client.batch().v1().jobs().inNamespace(NS).withName("job").get());
        assertNull(client.secrets().inNamespace(NS).withName(JobFactory.secretName(settings(null, "gone"))).get());
    }

    private static String image(Job job) {
        return job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }
}
