package io.ricochet.loadgen.distributed;

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
 * replaced worker would rejoin a run it no longer belongs to.
 */
public final class JobFactory {
    public static final String LABEL_NAME = "app.kubernetes.io/name";
    public static final String LABEL_COMPONENT = "app.kubernetes.io/component";
    public static final String LABEL_INSTANCE = "app.kubernetes.io/instance";
    public static final String LABEL_RUN = "ricochet.io/run";
    public static final String COMPONENT = "load-worker";
    public static final String NAME = "ricochet";
    public static final String CONTAINER = "worker";
    /** Set by Kubernetes on the pods of an Indexed Job. */
    public static final String INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";

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
                .withType("Opaque").withStringData(Map.of(RunSecret.SECRET_KEY, runSecret)).build();
    }

    /** The worker container's arguments, after the image's {@code java -jar load-generator.jar}. */
    public static List<String> workerArgs(InetSocketAddress controller) {
        return List.of("worker", "--controller=" + controller.getHostString() + ":" + controller.getPort());
    }

    /**
     * The Job for {@code s}, its workers running {@code image}; owned by the controller's pod when
     * {@code s} knows it (downward API), so deleting the controller deletes its workers.
     */
    public static Job build(KubernetesSettings s, String image, InetSocketAddress controller) {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity(s.cpu()), "memory", new Quantity(s.memory()));
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
                            .addNewContainer()
                                .withName(CONTAINER)
                                .withImage(image)
                                .withArgs(workerArgs(controller))
                                .addNewEnv().withName(RunSecret.ENV).withNewValueFrom().withNewSecretKeyRef()
                                    .withName(secretName(s)).withKey(RunSecret.SECRET_KEY).endSecretKeyRef()
                                .endValueFrom().endEnv()
                                .withNewResources().withRequests(resources).withLimits(resources).endResources()
                            .endContainer()
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
