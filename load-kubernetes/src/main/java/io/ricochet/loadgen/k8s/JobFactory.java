package io.ricochet.loadgen.k8s;

import io.ricochet.loadgen.distributed.RunSecret;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workers' Indexed Job: one pod per index, each running {@code worker --controller HOST:PORT} and
 * taking its index from {@code JOB_COMPLETION_INDEX}; no retries ({@code backoffLimit: 0}), since a
 * replaced worker would rejoin a run it no longer belongs to. Its pods meet the restricted Pod Security
 * profile, as the k8s/ manifests' do: not root, no privilege escalation, no capabilities, the runtime's
 * default seccomp filter, a read-only root filesystem with an emptyDir at /tmp, and no API token.
 */
public final class JobFactory {
    /** The key of the run's Secret that holds its {@link RunSecret}. */
    static final String SECRET_KEY = "run-secret";
    public static final String LABEL_NAME = "app.kubernetes.io/name";
    public static final String LABEL_COMPONENT = "app.kubernetes.io/component";
    public static final String LABEL_INSTANCE = "app.kubernetes.io/instance";
    public static final String LABEL_RUN = "ricochet.io/run";
    public static final String COMPONENT = "load-worker";
    public static final String NAME = "ricochet";
    public static final String CONTAINER = "worker";
    /** Set by Kubernetes on the pods of an Indexed Job. */
    public static final String INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";
    /** Where the worker writes, its only writable path: an emptyDir, where Netty extracts its native libraries. */
    public static final String TMP = "/tmp";
    /** The emptyDir's bound: Netty's native libraries are a few MiB. */
    public static final String TMP_SIZE = "64Mi";
    /** Where the image keeps Netty's native libraries, read-only (the root Dockerfile's {@code /app/native}). */
    public static final String NATIVE_LIBRARIES = "/app/native";
    /** The user and group of the image (the root Dockerfile's {@code USER}), which the pods run as. */
    public static final long USER = 10001;
    /**
     * The worker container's command: the image's entrypoint (the root Dockerfile's; a test keeps them equal), named in
     * the pod so that the Job itself shows and keeps the JVM's sizing, whatever entrypoint {@code --image} has. The heap
     * may take 40% of the pod's memory limit, and direct memory, which the JVM caps at the heap's maximum when
     * {@code -XX:MaxDirectMemorySize} is not given, 40% more; 20% is left for metaspace, code, thread stacks and
     * native libraries. Netty's load from the image's read-only {@link #NATIVE_LIBRARIES}, so that {@link #TMP} may be
     * mounted {@code noexec}. Its classes come from the image's class-data archive (docker/cds-training.sh), and the
     * JVM's own warnings go to stderr; an image without the archive starts without it.
     */
    public static final List<String> WORKER_COMMAND = List.of("java", "-XX:+UseParallelGC", "-XX:MaxRAMPercentage=40",
            "-Djava.library.path=" + JobFactory.NATIVE_LIBRARIES, "-XX:SharedArchiveFile=/app/cds/load-generator.jsa",
            "-Xlog:disable", "-Xlog:all=warning:stderr", "-jar", "/app/load-generator.jar");
    /**
     * What {@link #preview} shows in place of the run's secret, which the controller makes anew for every run and
     * puts in the Secret only when it creates it.
     */
    public static final String SECRET_PLACEHOLDER = "<the run's secret: 256 random bits the controller makes for each run>";
    private static final String TMP_VOLUME = "tmp";

    private JobFactory() {
    }

    public static Map<String, String> labels(KubernetesSettings s) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_NAME, NAME);
        labels.put(LABEL_COMPONENT, COMPONENT);
        labels.put(LABEL_INSTANCE, s.instance());
        labels.put(LABEL_RUN, s.jobName());
        return labels;
    }

    /** The Secret that holds the run's secret, which the workers read into their environment. */
    public static String secretName(KubernetesSettings s) {
        return s.jobName() + "-run-secret";
    }

    /** The run's secret as a Kubernetes Secret, labelled and owned as the Job is; created before the Job. */
    public static Secret secret(KubernetesSettings s, String runSecret) {
        return new SecretBuilder().withNewMetadata().withName(secretName(s)).withLabels(labels(s))
                .withOwnerReferences(owners(s)).endMetadata()
                .withType("Opaque").withStringData(Map.of(SECRET_KEY, runSecret)).build();
    }

    /**
     * The objects a run creates, in the order it creates them (the Secret, then the Job), for an operator to review:
     * the Secret holds {@link #SECRET_PLACEHOLDER} instead of a secret, and both are in {@code s}'s namespace when it
     * names one.
     */
    public static List<HasMetadata> preview(KubernetesSettings s, String image, InetSocketAddress controller) {
        List<HasMetadata> objects = List.of(secret(s, SECRET_PLACEHOLDER), build(s, image, controller));
        objects.forEach(o -> o.getMetadata().setNamespace(s.namespace()));
        return objects;
    }

    /** The worker container's arguments, after {@link #WORKER_COMMAND}. */
    public static List<String> workerArgs(InetSocketAddress controller) {
        return List.of("worker", "--controller=" + controller.getHostString() + ":" + controller.getPort());
    }

    /**
     * The Job for {@code s}, its workers running {@code image}; owned by the controller's pod when
     * {@code s} knows it (downward API), so deleting the controller deletes its workers.
     */
    public static Job build(KubernetesSettings s, String image, InetSocketAddress controller) {
        // In this order every time: Map.of's order changes from JVM to JVM, and two plans must diff.
        Map<String, Quantity> resources = new LinkedHashMap<>();
        resources.put("cpu", new Quantity(s.cpu()));
        resources.put("memory", new Quantity(s.memory()));
        List<OwnerReference> owners = owners(s);
        return new JobBuilder()
                .withNewMetadata().withName(s.jobName()).withLabels(labels(s)).withOwnerReferences(owners).endMetadata()
                .withNewSpec()
                    .withCompletionMode("Indexed")
                    .withCompletions(s.workers())
                    .withParallelism(s.workers())
                    .withBackoffLimit(0)
                    .withTtlSecondsAfterFinished(s.ttlSeconds())
                    .withNewTemplate()
                        .withNewMetadata().withLabels(labels(s)).endMetadata()
                        .withNewSpec()
                            .withRestartPolicy("Never")
                            // A worker never calls the API: it reads its secret from its environment.
                            .withAutomountServiceAccountToken(false)
                            .withNewSecurityContext()
                                .withRunAsNonRoot(true).withRunAsUser(USER).withRunAsGroup(USER).withFsGroup(USER)
                                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                            .endSecurityContext()
                            .addNewContainer()
                                .withName(CONTAINER)
                                .withImage(image)
                                .withCommand(WORKER_COMMAND)
                                .withArgs(workerArgs(controller))
                                .addNewEnv().withName(RunSecret.ENV).withNewValueFrom().withNewSecretKeyRef()
                                    .withName(secretName(s)).withKey(SECRET_KEY).endSecretKeyRef()
                                .endValueFrom().endEnv()
                                .withNewResources().withRequests(resources).withLimits(resources).endResources()
                                .withNewSecurityContext()
                                    .withAllowPrivilegeEscalation(false).withReadOnlyRootFilesystem(true)
                                    .withNewCapabilities().withDrop("ALL").endCapabilities()
                                .endSecurityContext()
                                .addNewVolumeMount().withName(TMP_VOLUME).withMountPath(TMP).endVolumeMount()
                            .endContainer()
                            .addNewVolume().withName(TMP_VOLUME)
                                .withNewEmptyDir().withSizeLimit(new Quantity(TMP_SIZE)).endEmptyDir()
                            .endVolume()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    /** The controller's pod, when known (downward API): deleting the controller deletes what it made. */
    private static List<OwnerReference> owners(KubernetesSettings s) {
        List<OwnerReference> owners = new ArrayList<>();
        if (s.ownerPod() != null && s.ownerPodUid() != null) {
            owners.add(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName(s.ownerPod())
                    .withUid(s.ownerPodUid()).withController(false).withBlockOwnerDeletion(false).build());
        }
        return owners;
    }
}
