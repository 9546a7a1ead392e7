package io.ricochet.loadgen.cli;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ricochet.loadgen.k8s.JobFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A test-only kubelet for the Fabric8 mock server: it waits for the controller's Indexed Job, runs each
 * index as a worker process with the container's args and {@code JOB_COMPLETION_INDEX} set, and writes
 * pod and Job status back as the processes run and exit.
 */
final class KubeletStandIn implements AutoCloseable {
    private final KubernetesClient client;
    private final String namespace;
    private final Path logs;
    private final List<String> entrypoint;
    private final List<Process> processes = new ArrayList<>();
    Job job;

    /** Runs each worker as this JVM's class path would: the generator's classes, and whatever else is on it. */
    KubeletStandIn(KubernetesClient client, String namespace, Path logs) {
        this(client, namespace, logs, List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LoadGeneratorMain.class.getName()));
    }

    /**
     * Runs each worker with {@code entrypoint} before the container's args: an image's, such as {@code java -jar
     * /app/load-generator.jar}, with the image's files at a path of this machine.
     */
    KubeletStandIn(KubernetesClient client, String namespace, Path logs, List<String> entrypoint) {
        this.client = client;
        this.namespace = namespace;
        this.logs = logs;
        this.entrypoint = List.copyOf(entrypoint);
    }

    /** Waits for the workers' Job (the controller's own may be there too), then starts one worker per index. */
    void runJob(long timeoutMillis) throws Exception {
        job = Awaitility.await("a Job created by the controller").atMost(Duration.ofMillis(timeoutMillis))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> client.batch().v1().jobs().inNamespace(namespace)
                        .withLabel(io.ricochet.loadgen.k8s.JobFactory.LABEL_COMPONENT,
                                io.ricochet.loadgen.k8s.JobFactory.COMPONENT).list().getItems(),
                        jobs -> !jobs.isEmpty())
                .get(0);
        List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
        for (int i = 0; i < job.getSpec().getCompletions(); i++) {
            List<String> command = new ArrayList<>(entrypoint);
            command.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(Files.createDirectories(logs).resolve("pod-" + i + ".log").toFile());
            pb.environment().put(WorkerCommand.INDEX_ENV, Integer.toString(i));
            environment(job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv(), pb.environment());
            processes.add(pb.start());
            client.pods().inNamespace(namespace).resource(pod(i, "Running", null)).create();
        }
    }

    /** The container's environment as a kubelet resolves it: plain values, and keys of Secrets. */
    private void environment(List<EnvVar> vars, Map<String, String> into) {
        for (EnvVar var : vars) {
            if (var.getValue() != null) {
                into.put(var.getName(), var.getValue());
            } else if (var.getValueFrom() != null && var.getValueFrom().getSecretKeyRef() != null) {
                SecretKeySelector ref = var.getValueFrom().getSecretKeyRef();
                Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
                if (secret == null) {
                    throw new AssertionError("the pod's Secret " + ref.getName() + " does not exist");
                }
                String value = secret.getStringData() != null && secret.getStringData().containsKey(ref.getKey())
                        ? secret.getStringData().get(ref.getKey())
                        : new String(Base64.getDecoder().decode(secret.getData().get(ref.getKey())), StandardCharsets.UTF_8);
                into.put(var.getName(), value);
            }
        }
    }

    /** Waits for every worker to exit and records how each ended in its pod's status and the Job's. */
    void awaitExits(long timeoutMillis) throws Exception {
        int succeeded = 0;
        for (int i = 0; i < processes.size(); i++) {
            Process p = processes.get(i);
            if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new AssertionError("worker " + i + " still running");
            }
            succeeded += p.exitValue() == 0 ? 1 : 0;
            int exit = p.exitValue();
            int index = i;
            ignoringDeleted(() -> client.pods().inNamespace(namespace)
                    .resource(pod(index, exit == 0 ? "Succeeded" : "Failed", exit)).updateStatus());
        }
        int ok = succeeded;
        // The controller may already have deleted the Job once its workers reported: as a real kubelet would, skip it then.
        ignoringDeleted(() -> {
            Job current = client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName()).get();
            if (current != null) {
                current.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder().withSucceeded(ok)
                        .withFailed(processes.size() - ok).build());
                client.batch().v1().jobs().inNamespace(namespace).resource(current).updateStatus();
            }
        });
    }

    private static void ignoringDeleted(Runnable update) {
        try {
            update.run();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private Pod pod(int index, String phase, Integer exitCode) {
        Map<String, String> labels = new HashMap<>(job.getSpec().getTemplate().getMetadata().getLabels());
        labels.put("job-name", job.getMetadata().getName());
        var status = new ContainerStatusBuilder().withName(JobFactory.CONTAINER).withNewState();
        var withState = exitCode == null ? status.withNewRunning().endRunning()
                : status.withNewTerminated().withExitCode(exitCode).withReason(exitCode == 0 ? "Completed" : "Error").endTerminated();
        return new PodBuilder().withNewMetadata().withName(job.getMetadata().getName() + "-" + index).withNamespace(namespace)
                .withLabels(labels).addToAnnotations(JobFactory.INDEX_ANNOTATION, Integer.toString(index)).endMetadata()
                .withNewSpec().withRestartPolicy("Never").addNewContainer().withName(JobFactory.CONTAINER)
                .withImage(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).endContainer().endSpec()
                .withNewStatus().withPhase(phase).withContainerStatuses(withState.endState().build()).endStatus().build();
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
    }
}
