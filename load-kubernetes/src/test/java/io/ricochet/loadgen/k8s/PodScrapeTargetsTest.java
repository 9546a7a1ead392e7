package io.ricochet.loadgen.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class PodScrapeTargetsTest {
    private static final String NS = "ricochet";
    private static final Map<String, String> ECHO = Map.of("app.kubernetes.io/component", "echo-server");

    KubernetesClient client;

    @Test
    void everyReadyPodIsScrapedAtItsOwnIpInNameOrder() {
        List<Pod> pods = List.of(
                pod("echo-b", "10.0.0.2", "True", ECHO),
                pod("echo-a", "10.0.0.1", "True", ECHO),
                pod("echo-starting", "10.0.0.3", "False", ECHO),
                pod("echo-pending", null, null, ECHO),
                pod("echo-v6", "fd00::7", "True", ECHO));
        assertEquals(List.of(URI.create("http://10.0.0.1:9100/metrics"), URI.create("http://10.0.0.2:9100/metrics"),
                URI.create("http://[fd00::7]:9100/metrics")), PodScrapeTargets.urls(pods, 9100, "/metrics"));
    }

    @Test
    void onlyThePodsTheSelectorMatchesInTheNamespaceAreListed() {
        create(pod("echo-1", "10.0.0.1", "True", ECHO));
        create(pod("controller", "10.0.0.9", "True", Map.of("app.kubernetes.io/component", "load-controller")));
        assertEquals(List.of(URI.create("http://10.0.0.1:9200/m")),
                PodScrapeTargets.list(client, NS, ECHO, 9200, "/m"));
        assertEquals(List.of(), PodScrapeTargets.list(client, "elsewhere", ECHO, 9200, "/m"));
    }

    private void create(Pod pod) {
        client.pods().inNamespace(NS).resource(pod).create();
    }

    /** A pod at {@code ip} (null: none yet) whose Ready condition is {@code ready} (null: none). */
    private static Pod pod(String name, String ip, String ready, Map<String, String> labels) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).withLabels(labels)
                .endMetadata().withNewStatus().withPodIP(ip).endStatus();
        if (ready != null) {
            pod.editStatus().addNewCondition().withType("Ready").withStatus(ready).endCondition().endStatus();
        }
        return pod.build();
    }
}
