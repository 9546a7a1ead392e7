package io.ricochet.loadgen.k8s;

/**
 * The Indexed Job the Kubernetes executor creates.
 *
 * @param namespace   the Job's namespace; null for the client's own (kubeconfig context or the pod's)
 * @param jobName     the Job's name, also its {@code ricochet.io/run} label
 * @param image       the load-generator image, Ricochet's or one built from it: the workers run
 *                    {@link JobFactory#WORKER_COMMAND} in it ({@code java … -jar /app/load-generator.jar}); null for
 *                    the image of {@code ownerPod}'s first container, or {@link #DEFAULT_IMAGE} outside a pod
 * @param workers     completions and parallelism
 * @param ttlSeconds  ttlSecondsAfterFinished: the Job, its pods and their logs are deleted this long after it ends,
 *                    if the controller has not deleted it (it was killed, or {@code keep})
 * @param cpu         CPU request and limit of each worker pod
 * @param memory      memory request and limit of each worker pod, which sizes its JVM ({@link JobFactory#WORKER_COMMAND})
 * @param instance    the {@code app.kubernetes.io/instance} label
 * @param keep        leave the Job in place after the run
 * @param ownerPod    the controller's own pod (downward API {@code POD_NAME}), or null outside a pod
 * @param ownerPodUid that pod's uid ({@code POD_UID}); with {@code ownerPod}, the owner of the Job and its Secret
 */
public record KubernetesSettings(String namespace, String jobName, String image, int workers, int ttlSeconds,
        String cpu, String memory, String instance, boolean keep, String ownerPod, String ownerPodUid) {
    /** The workers' image when neither --image nor the controller's own pod names one. */
    public static final String DEFAULT_IMAGE = "ricochet/ricochet:0.1.0";
}
