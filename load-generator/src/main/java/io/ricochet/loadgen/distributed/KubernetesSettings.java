package io.ricochet.loadgen.distributed;

/**
 * The Indexed Job the Kubernetes executor creates.
 *
 * @param namespace  the Job's namespace; null for the client's own (kubeconfig context or the pod's)
 * @param jobName    the Job's name, also its {@code ricochet.io/run} label
 * @param image      the load-generator image; its entrypoint is {@code java -jar load-generator.jar}
 * @param workers    completions and parallelism
 * @param ttlSeconds ttlSecondsAfterFinished
 * @param cpu        CPU request and limit of each worker pod
 * @param memory     memory request and limit of each worker pod
 * @param instance   the {@code app.kubernetes.io/instance} label
 * @param keep       leave the Job in place after the run
 */
public record KubernetesSettings(String namespace, String jobName, String image, int workers, int ttlSeconds,
        String cpu, String memory, String instance, boolean keep) {
}
