package io.ricochet.loadgen.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The metrics URLs of the Ready pods a label selector matches ({@code --scrape-selector}): each pod at its own IP, so
 * every replica behind a Service is scraped, not whichever one the Service picks for a request. Listed once, before
 * the run: a pod that becomes Ready later is not scraped. It lists pods, which {@link KubernetesExecutor#PERMISSIONS}
 * (and so the controller's Role) already grants.
 */
public final class PodScrapeTargets {
    private PodScrapeTargets() {
    }

    /** Lists the pods in {@code namespace} that {@code selector} matches and gives the URLs of the Ready ones. */
    public static List<URI> list(KubernetesClient client, String namespace, Map<String, String> selector, int port,
            String path) {
        return urls(client.pods().inNamespace(namespace).withLabels(selector).list().getItems(), port, path);
    }

    /**
     * {@code http://POD_IP:port/path} of each Ready pod with an IP that is not being deleted, ordered by pod name so
     * the summary's rows come in the same order run after run.
     */
    static List<URI> urls(List<Pod> pods, int port, String path) {
        return pods.stream().filter(PodScrapeTargets::ready)
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .map(p -> url(p.getStatus().getPodIP(), port, path)).toList();
    }

    private static boolean ready(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getPodIP() == null || pod.getStatus().getPodIP().isEmpty()
                || pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        List<PodCondition> conditions = pod.getStatus().getConditions();
        return conditions != null && conditions.stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static URI url(String ip, int port, String path) {
        try {
            // The URI constructor puts an IPv6 address in brackets.
            return new URI("http", null, ip, port, path, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("pod IP " + ip + " and path " + path + " make no URL: " + e.getMessage(), e);
        }
    }
}
