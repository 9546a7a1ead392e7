package io.ricochet.loadgen.k8s;

import io.ricochet.loadgen.distributed.WorkerExecutor;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs the workers as a Kubernetes Indexed Job through the Fabric8 client (kubeconfig or the pod's
 * service account). It watches the Job's pods with an informer and reports pods that cannot be
 * scheduled, cannot pull their image, crash or exit non-zero (with the tail of their log), and deletes
 * the Job when the run ends unless told to keep it. Everything it calls is in {@link #PERMISSIONS},
 * which the Role in k8s/ grants exactly.
 */
public final class KubernetesExecutor implements WorkerExecutor {
    /** resource → verbs this executor uses; k8s/base/load-controller/role.yaml must grant exactly these. */
    public static final Map<String, Set<String>> PERMISSIONS = Map.of(
            "jobs", Set.of("create", "get", "list", "watch", "delete"),
            "pods", Set.of("get", "list", "watch"),
            "pods/log", Set.of("get"),
            "secrets", Set.of("create", "delete"));
    private static final Set<String> STUCK = Set.of("CrashLoopBackOff", "ErrImagePull", "ImagePullBackOff",
            "CreateContainerConfigError", "CreateContainerError", "InvalidImageName");
    private static final long JOB_CHECK_NANOS = 1_000_000_000L;

    private final KubernetesSettings settings;
    private final Supplier<KubernetesClient> clients;
    private final Map<Integer, String> problems = new ConcurrentHashMap<>();
    private final Set<Integer> reported = new HashSet<>();
    private KubernetesClient client;
    private String namespace;
    private SharedIndexInformer<Pod> informer;
    private long lastJobCheck;
    /** Whether there is a Job to delete at close: a launch that failed before creating it left none. */
    private boolean jobCreated;
    /** Whether the client is this executor's to close: made by its supplier, not handed over by its owner. */
    private final boolean ownsClient;

    public KubernetesExecutor(KubernetesSettings settings, Supplier<KubernetesClient> clients) {
        this(settings, clients, true);
    }

    /**
     * An executor on {@code client}, which stays open after the run: its owner (a test's, a user's) closes it.
     */
    public KubernetesExecutor(KubernetesSettings settings, KubernetesClient client) {
        this(settings, () -> client, false);
    }

    private KubernetesExecutor(KubernetesSettings settings, Supplier<KubernetesClient> clients, boolean ownsClient) {
        this.settings = settings;
        this.clients = clients;
        this.ownsClient = ownsClient;
    }

    /**
     * The client of the cluster this runs in, or of the kubeconfig. Its retries are few and its connect timeout short,
     * so a machine with no cluster fails in seconds with the cause, rather than after the client's default retries.
     */
    public static KubernetesClient connect() {
        Config config = Config.autoConfigure(null);
        config.setRequestRetryBackoffLimit(1);
        config.setConnectionTimeout(5_000);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Override
    public void launch(InetSocketAddress controller, String runSecret) {
        client = clients.get();
        try {
            createWorkers(controller, runSecret);
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("cannot start the workers' Job through the Kubernetes API at "
                    + client.getMasterUrl() + ": " + cause(e), e);
        }
    }

    /** The innermost cause's own words: the client's outer message is often "An error has occurred.". */
    private static String cause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        return root == e ? message : e.getMessage() + " (" + message + ")";
    }

    private void createWorkers(InetSocketAddress controller, String runSecret) {
        namespace = settings.namespace() != null ? settings.namespace() : client.getNamespace();
        if (namespace == null) {
            namespace = "default";
        }
        String image = settings.image() != null ? settings.image() : ownImage();
        // Before the Job: a pod whose Secret is missing would not start.
        client.secrets().inNamespace(namespace).resource(JobFactory.secret(settings, runSecret)).create();
        Job job = JobFactory.build(settings, image, controller);
        client.batch().v1().jobs().inNamespace(namespace).resource(job).create();
        jobCreated = true;
        informer = client.pods().inNamespace(namespace).withLabel(JobFactory.LABEL_RUN, settings.jobName())
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        inspect(pod);
                    }

                    @Override
                    public void onUpdate(Pod old, Pod pod) {
                        inspect(pod);
                    }

                    @Override
                    public void onDelete(Pod pod, boolean unknownFinalState) {
                    }
                });
    }

    /**
     * The image of the controller's own pod (its first container), so that the workers run what the controller
     * runs and the manifests set the image in one place; outside a pod, {@link KubernetesSettings#DEFAULT_IMAGE}.
     */
    private String ownImage() {
        if (settings.ownerPod() == null) {
            return KubernetesSettings.DEFAULT_IMAGE;
        }
        Pod own = client.pods().inNamespace(namespace).withName(settings.ownerPod()).get();
        if (own == null) {
            // Better no run than workers on an image nobody chose.
            throw new IllegalStateException("no --image given, and this controller's pod " + namespace + "/"
                    + settings.ownerPod() + " (POD_NAME) is not there to take the image from");
        }
        return own.getSpec().getContainers().get(0).getImage();
    }

    public String namespace() {
        return namespace;
    }

    private void inspect(Pod pod) {
        Integer index = index(pod);
        if (index == null || problems.containsKey(index)) {
            return;
        }
        String why = problem(pod);
        if (why != null) {
            problems.put(index, "pod " + pod.getMetadata().getName() + " " + why + logTail(pod));
        }
    }

    /** Why {@code pod} will not run its worker to the end, or null if nothing is wrong (yet). */
    static String problem(Pod pod) {
        if (pod.getStatus() == null) {
            return null;
        }
        for (PodCondition c : nonNull(pod.getStatus().getConditions())) {
            if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())) {
                return "cannot be scheduled: " + c.getMessage();
            }
        }
        for (ContainerStatus cs : nonNull(pod.getStatus().getContainerStatuses())) {
            if (cs.getState() == null) {
                continue;
            }
            if (cs.getState().getWaiting() != null && STUCK.contains(cs.getState().getWaiting().getReason())) {
                return "is stuck: " + cs.getState().getWaiting().getReason() + " " + Objects.toString(cs.getState().getWaiting().getMessage(), "");
            }
            if (cs.getState().getTerminated() != null && cs.getState().getTerminated().getExitCode() != null
                    && cs.getState().getTerminated().getExitCode() > 1) {
                return "exited with status " + cs.getState().getTerminated().getExitCode() + " ("
                        + cs.getState().getTerminated().getReason() + ")";
            }
        }
        if ("Failed".equals(pod.getStatus().getPhase())) {
            return "failed: " + Objects.toString(pod.getStatus().getReason(), "") + " " + Objects.toString(pod.getStatus().getMessage(), "");
        }
        return null;
    }

    private String logTail(Pod pod) {
        try {
            PodResource resource = client.pods().inNamespace(namespace).withName(pod.getMetadata().getName());
            if (resource.get() == null) {
                return "";
            }
            String log = resource.tailingLines(5).getLog();
            return log == null || log.isBlank() ? "" : "; last log lines: " + log.strip().replace('\n', '|');
        } catch (KubernetesClientException e) {
            return "";
        }
    }

    private static Integer index(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(JobFactory.INDEX_ANNOTATION);
        if (value == null && pod.getMetadata().getLabels() != null) {
            value = pod.getMetadata().getLabels().get(JobFactory.INDEX_ANNOTATION);
        }
        try {
            return value == null ? null : Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    @Override
    public Map<Integer, String> poll() {
        long now = System.nanoTime();
        if (client != null && now - lastJobCheck > JOB_CHECK_NANOS) {
            lastJobCheck = now;
            try {
                Job job = client.batch().v1().jobs().inNamespace(namespace).withName(settings.jobName()).get();
                if (job == null) {
                    for (int i = 0; i < settings.workers(); i++) {
                        problems.putIfAbsent(i, "Job " + settings.jobName() + " was deleted");
                    }
                }
            } catch (KubernetesClientException e) {
                // A blip of the API server mid-run: the next check looks again, and the workers report themselves.
            }
        }
        Map<Integer, String> fresh = new HashMap<>();
        problems.forEach((index, why) -> {
            if (reported.add(index)) {
                fresh.put(index, why);
            }
        });
        return fresh;
    }

    @Override
    public void close() {
        if (client == null) {
            return;
        }
        if (informer != null) {
            informer.close();
        }
        try {
            if (!settings.keep() && jobCreated) {
                var job = client.batch().v1().jobs().inNamespace(namespace).withName(settings.jobName());
                job.withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
                job.waitUntilCondition(Objects::isNull, 30, TimeUnit.SECONDS);
            }
        } catch (KubernetesClientException e) {
            // Deletion continues in the cluster, or the Job's ttlSecondsAfterFinished ends it; the result stands.
        } finally {
            try {
                // The run is over: its secret admits nobody any more, kept Job or not.
                client.secrets().inNamespace(namespace).withName(JobFactory.secretName(settings)).delete();
            } catch (KubernetesClientException e) {
                // Gone already, or not ours to delete: the next run makes a new one.
            } finally {
                if (ownsClient) {
                    client.close();
                }
            }
        }
    }
}
