package io.ricochet.loadgen.k8s;

import io.ricochet.loadgen.distributed.RunSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The workers' Job as JobFactory builds it: pods a cluster enforcing the restricted Pod Security profile admits. */
class JobFactoryTest {
    private static final InetSocketAddress CONTROLLER = InetSocketAddress.createUnresolved("ricochet-load-controller", 7200);

    private static KubernetesSettings settings(String memory, String ownerPod) {
        return new KubernetesSettings("loadtest", "load-1", null, 3, 600, "1", memory, "test", false, ownerPod,
                ownerPod == null ? null : "uid-1");
    }

    private static PodSpec pod(Job job) {
        return job.getSpec().getTemplate().getSpec();
    }

    @ParameterizedTest
    @CsvSource(nullValues = "-", value = {"-", "controller-x"})
    void theWorkersPodsMeetTheRestrictedProfile(String ownerPod) {
        Job job = JobFactory.build(settings("2Gi", ownerPod), "ricochet/ricochet:0.1.0", CONTROLLER);
        assertEquals(List.of(), RestrictedProfile.violations("worker", pod(job), false));
        // Explicitly, as an operator reads it: the image's user, not root, and no token.
        PodSpec pod = pod(job);
        assertEquals(JobFactory.USER, pod.getSecurityContext().getRunAsUser());
        assertEquals(JobFactory.USER, pod.getSecurityContext().getRunAsGroup());
        assertEquals(JobFactory.USER, pod.getSecurityContext().getFsGroup());
        assertEquals(true, pod.getSecurityContext().getRunAsNonRoot());
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        assertEquals(false, pod.getAutomountServiceAccountToken());
        Container worker = pod.getContainers().get(0);
        assertEquals(false, worker.getSecurityContext().getAllowPrivilegeEscalation());
        assertEquals(true, worker.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals(List.of("ALL"), worker.getSecurityContext().getCapabilities().getDrop());
        assertEquals(List.of(), worker.getSecurityContext().getCapabilities().getAdd());
    }

    /** Heap and direct memory fit the pod's limit whatever --worker-memory is, and Netty writes only to the emptyDir. */
    @ParameterizedTest
    @ValueSource(strings = {"256Mi", "512Mi", "2Gi", "8Gi"})
    void theWorkersJvmFitsItsMemoryLimitAndWritesOnlyToItsEmptyDir(String memory) {
        Job job = JobFactory.build(settings(memory, null), "ricochet/ricochet:0.1.0", CONTROLLER);
        Container worker = pod(job).getContainers().get(0);
        Quantity quantity = new Quantity(memory);
        assertEquals(Map.of("cpu", new Quantity("1"), "memory", quantity), worker.getResources().getRequests());
        assertEquals(worker.getResources().getRequests(), worker.getResources().getLimits());
        assertEquals(JobFactory.WORKER_COMMAND, worker.getCommand());
        assertEquals(List.of("worker", "--controller=ricochet-load-controller:7200"), worker.getArgs());
        Set<String> writable = JvmSizing.writablePaths(pod(job), worker);
        assertEquals(Set.of(JobFactory.TMP), writable);
        assertEquals(List.of(), JvmSizing.violations("worker", worker.getCommand(), quantity, writable));
        Volume tmp = pod(job).getVolumes().get(0);
        assertEquals(1, pod(job).getVolumes().size());
        assertEquals(new Quantity(JobFactory.TMP_SIZE), tmp.getEmptyDir().getSizeLimit());
        assertNull(tmp.getEmptyDir().getMedium(), "on the node's disk, not in the pod's memory");
    }

    /** Without a controller to delete it (killed, or --keep), the Job goes by itself, and its pods and Secret with it. */
    @Test
    void theJobIsDeletedItsTtlAfterItEnds() {
        Job job = JobFactory.build(settings("2Gi", null), "image", CONTROLLER);
        assertEquals(600, job.getSpec().getTtlSecondsAfterFinished());
        assertEquals(0, job.getSpec().getBackoffLimit());
    }

    /** What plan --manifests prints: the Secret, with a placeholder for the secret, then the Job that reads it. */
    @Test
    void thePreviewIsTheSecretAndTheJobWithAPlaceholderForTheSecret() {
        KubernetesSettings s = settings("2Gi", "controller-x");
        List<HasMetadata> preview = JobFactory.preview(s, "image", CONTROLLER);
        assertEquals(List.of("Secret", "Job"), preview.stream().map(HasMetadata::getKind).toList());
        Secret secret = (Secret) preview.get(0);
        Job job = (Job) preview.get(1);
        preview.forEach(o -> assertEquals("loadtest", o.getMetadata().getNamespace()));
        EnvVar env = pod(job).getContainers().get(0).getEnv().get(0);
        assertEquals(RunSecret.ENV, env.getName());
        assertEquals(secret.getMetadata().getName(), env.getValueFrom().getSecretKeyRef().getName());
        assertEquals(Map.of(env.getValueFrom().getSecretKeyRef().getKey(), JobFactory.SECRET_PLACEHOLDER),
                secret.getStringData());
        assertEquals(Map.of(), secret.getData(), "no secret, even encoded");
        // The same objects as a run's, but for the placeholder and the namespace the run gives through its client.
        Job built = JobFactory.build(s, "image", CONTROLLER);
        built.getMetadata().setNamespace("loadtest");
        assertEquals(built, job);
        Secret made = JobFactory.secret(s, "a-secret");
        assertFalse(made.getStringData().containsValue(JobFactory.SECRET_PLACEHOLDER));
        assertEquals(made.getMetadata().getOwnerReferences(), secret.getMetadata().getOwnerReferences());
    }
}
