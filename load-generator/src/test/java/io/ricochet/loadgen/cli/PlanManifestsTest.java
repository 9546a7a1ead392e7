package io.ricochet.loadgen.cli;

import static io.ricochet.loadgen.cli.MockCluster.NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.k8s.JobFactory;
import io.ricochet.loadgen.k8s.JvmSizing;
import io.ricochet.loadgen.k8s.KubernetesSettings;
import io.ricochet.loadgen.k8s.RestrictedProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code plan --executor kubernetes … --manifests}: the Secret and the workers' Job the controller would create, printed
 * as YAML for an operator to review before a run, with the run's secret left out. The Job printed is the Job a run
 * creates (on the Fabric8 mock server), and its pods are ones the restricted Pod Security profile admits.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class PlanManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> KUBERNETES = List.of("--workers", "3", "--executor", "kubernetes", "--namespace", NS,
            "--job-name", "load-m", "--image", "example/lg:1", "--worker-cpu", "500m", "--worker-memory", "1Gi",
            "--ttl", "300", "--instance", "ci", "--advertise", "ricochet-load-controller");
    private static final List<String> SCENARIO = List.of("echo", "--target", "echo-server:7000", "--connections", "300",
            "--duration", "10s");

    KubernetesClient client;

    private static Cli.Result run(String command, List<String> options, String... more) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(options);
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    /** What a run of {@link #KUBERNETES} with {@code more} options would create, as plan --manifests prints it. */
    private static Cli.Result manifests(List<String> scenario, String... more) {
        List<String> options = new ArrayList<>(KUBERNETES);
        options.addAll(List.of(more));
        options.add("--manifests");
        options.addAll(scenario);
        return run("plan", options);
    }

    /** The YAML documents of {@code out}, each in Fabric8's model. */
    static List<HasMetadata> objects(String out) {
        List<HasMetadata> objects = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(out)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                objects.add(assertInstanceOf(HasMetadata.class, Serialization.unmarshal(doc.toString(), HasMetadata.class)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return objects;
    }

    @Test
    void itPrintsTheSecretAndTheJobAsYamlAfterThePlanAsComments() {
        Cli.Result r = manifests(SCENARIO, "--port", "7200");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        int first = lines.indexOf("---");
        assertTrue(first > 0, r.out());
        lines.subList(0, first).forEach(l -> assertTrue(l.startsWith("# "), l));
        assertTrue(lines.contains("# plan: connections: 300 over 3 worker(s), 100 each, to 1 target(s)"), r.out());
        assertTrue(lines.contains("# plan: fits"), r.out());
        assertTrue(r.out().contains("# The Secret's value is a placeholder"), r.out());
        // Every option the run was given: no notes on what a run would choose itself.
        assertFalse(r.out().contains("# No --"), r.out());

        List<HasMetadata> objects = objects(r.out());
        assertEquals(List.of("Secret", "Job"), objects.stream().map(HasMetadata::getKind).toList());
        Secret secret = (Secret) objects.get(0);
        Job job = (Job) objects.get(1);
        // The shape of the run's Secret, its key and a placeholder, never a secret.
        assertEquals("load-m-run-secret", secret.getMetadata().getName());
        assertEquals(NS, secret.getMetadata().getNamespace());
        assertEquals(1, secret.getStringData().size());
        assertEquals(JobFactory.SECRET_PLACEHOLDER, secret.getStringData().values().iterator().next());
        assertEquals(Map.of(), secret.getData(), "no secret, even encoded");
        var ref = job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().get(0).getValueFrom()
                .getSecretKeyRef();
        assertEquals(secret.getMetadata().getName(), ref.getName());
        assertTrue(secret.getStringData().containsKey(ref.getKey()), ref.getKey());
        // The Job JobFactory makes of these options.
        KubernetesSettings settings = new KubernetesSettings(NS, "load-m", "example/lg:1", 3, 300, "500m", "1Gi", "ci",
                false, System.getenv("POD_NAME"), System.getenv("POD_UID"));
        assertEquals(JobFactory.preview(settings, "example/lg:1",
                InetSocketAddress.createUnresolved("ricochet-load-controller", 7200)).get(1), job);
        assertEquals(300, job.getSpec().getTtlSecondsAfterFinished());
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertEquals(List.of(), RestrictedProfile.violations("worker", pod, false));
        Container worker = pod.getContainers().get(0);
        assertEquals(List.of(), JvmSizing.violations("worker", worker.getCommand(),
                worker.getResources().getLimits().get("memory"), JvmSizing.writablePaths(pod, worker)));
    }

    /** What the run would choose itself is said, as comments: a random Job name, the default image, the bound port. */
    /**
     * Two plans can be diffed: the resources' keys come in one order, where Map.of's changed from JVM to JVM (so a
     * second print in this JVM would not show it; the order itself is checked).
     */
    @Test
    void theResourcesAreInOneOrder() {
        Cli.Result r = manifests(SCENARIO, "--port", "7200");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        String yaml = r.out();
        int limits = yaml.indexOf("limits:");
        int requests = yaml.indexOf("requests:");
        assertTrue(limits > 0 && requests > limits, yaml);
        for (int section : new int[] {limits, requests}) {
            int cpu = yaml.indexOf("cpu:", section);
            int memory = yaml.indexOf("memory:", section);
            assertTrue(cpu > 0 && memory > cpu, "cpu, then memory: " + yaml.substring(section, Math.min(yaml.length(),
                    section + 120)));
        }
        assertEquals(yaml, manifests(SCENARIO, "--port", "7200").out(), "the same twice");
    }

    /** A local workload jar is not in the image the Job runs without --image: said, where nothing was. */
    @Test
    void aLocalWorkloadJarWithoutAnImageIsWarnedOf() {
        assertEquals(List.of("warning: --workload-jar target/mine.jar is a file here, not in "
                + KubernetesSettings.DEFAULT_IMAGE + ", which the workers run without --image: build an image FROM it "
                + "with the jar in /app/workloads/, which every worker searches, and give it with --image"),
                PlanCommand.localJarWarnings(List.of(java.nio.file.Path.of("target/mine.jar")), null));
        assertEquals(List.of(), PlanCommand.localJarWarnings(List.of(java.nio.file.Path.of("target/mine.jar")),
                "registry.example/loadtest:1"), "an image of the user's is taken to hold it");
        assertEquals(List.of(), PlanCommand.localJarWarnings(List.of(), null));
    }

    @Test
    void whatTheRunChoosesItselfIsSaid() {
        Cli.Result r = run("plan", List.of("--workers", "2", "--executor", "kubernetes", "--manifests", "echo", "--target",
                "echo-server:7000", "--connections", "20"));
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.out().contains("# No --job-name: each run names its Job ricochet-workers-<random>"), r.out());
        assertTrue(r.out().contains("# elsewhere " + KubernetesSettings.DEFAULT_IMAGE + ", shown here."), r.out());
        assertTrue(r.out().contains("# --port 0: the workers are given the port the controller binds"), r.out());
        if (System.getenv("POD_IP") == null) {
            assertTrue(r.out().contains("# No --advertise, and no POD_IP: the workers are told 127.0.0.1"), r.out());
        }
        Job job = (Job) objects(r.out()).get(1);
        assertTrue(job.getMetadata().getName().startsWith("ricochet-workers-"), job.getMetadata().getName());
        assertNull(job.getMetadata().getNamespace(), "the client's namespace, which plan does not ask for");
        Container worker = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals(KubernetesSettings.DEFAULT_IMAGE, worker.getImage());
        assertEquals(List.of("worker", "--controller=" + (System.getenv("POD_IP") == null ? "127.0.0.1"
                : System.getenv("POD_IP")) + ":0"), worker.getArgs());
    }

    /** A run that would be refused creates nothing, so there is nothing to print but why. */
    @Test
    void aRefusedRunPrintsThePlanAndNoManifests() {
        Cli.Result r = run("plan", List.of("--workers", "3", "--executor", "kubernetes", "--worker-memory", "64Mi",
                "--manifests", "echo", "--target", "echo-server:7000", "--connections", "300"));
        assertEquals(ExitCodes.FAILURE, r.exit(), r.err());
        assertFalse(r.out().contains("---"), r.out());
        assertFalse(r.out().contains("kind:"), r.out());
        assertTrue(r.out().endsWith("refused: memory: each worker pod needs about 91 MiB for 100 connections, more than "
                + "the 64 MiB it requests (raise --worker-memory or --workers)\n"), r.out());
    }

    @Test
    void itIsAKubernetesOptionOfPlanOnly() {
        Cli.Result local = Cli.run("plan", "--workers", "2", "--manifests", "echo", "--target", "127.0.0.1:7000");
        assertEquals(ExitCodes.USAGE, local.exit(), local.out());
        assertTrue(local.err().startsWith("load-generator: invalid option value: manifests: with --executor local "
                + "(expected: with --executor kubernetes, whose Secret and Job it prints)"), local.err());
        assertEquals("", local.out());
        Cli.Result controller = Cli.run("controller", "--workers", "2", "--manifests", "echo", "--target", "127.0.0.1:7000");
        assertEquals(ExitCodes.USAGE, controller.exit(), controller.out());
        assertTrue(controller.err().contains("--manifests"), controller.err());
    }

    /**
     * The Job printed is the one a run creates: here a run on the mock server whose workers never start (it stops at the
     * start barrier), kept with --keep so that it can be read back. Only the port differs, since --port 0 binds one.
     */
    @Test
    void theJobPrintedIsTheJobARunCreates() {
        try (MockCluster cluster = new MockCluster(client)) {
            List<String> options = new ArrayList<>(KUBERNETES);
            options.addAll(List.of("--bind", "127.0.0.1", "--start-timeout", "1s"));
            Cli.Result printed = run("plan", Stream.concat(Stream.concat(options.stream(), Stream.of("--manifests")),
                    SCENARIO.stream()).toList());
            assertEquals(ExitCodes.OK, printed.exit(), printed.err());
            List<String> scenario = List.of("echo", "--target", cluster.target(), "--connections", "300", "--duration",
                    "1s");
            Cli.Result ran = run("controller", Stream.concat(Stream.concat(options.stream(), Stream.of("--keep")),
                    scenario.stream()).toList());
            assertEquals(ExitCodes.FAILURE, ran.exit(), ran.err());
            Job created = client.batch().v1().jobs().inNamespace(NS).withName("load-m").get();
            assertNotNull(created, "--keep keeps the Job");
            Job job = (Job) objects(printed.out()).get(1);
            Container printedWorker = job.getSpec().getTemplate().getSpec().getContainers().get(0);
            Container createdWorker = created.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals(List.of("worker", "--controller=ricochet-load-controller:0"), printedWorker.getArgs());
            assertTrue(createdWorker.getArgs().get(1).matches("--controller=ricochet-load-controller:[1-9]\\d*"),
                    createdWorker.getArgs().toString());
            printedWorker.setArgs(null);
            createdWorker.setArgs(null);
            assertEquals(Serialization.asYaml(job.getSpec()), Serialization.asYaml(created.getSpec()));
            assertEquals(job.getMetadata().getLabels(), created.getMetadata().getLabels());
            assertEquals(job.getMetadata().getOwnerReferences(), created.getMetadata().getOwnerReferences());
            // The Secret is gone with the run, --keep or not; it was the one the Job names.
            assertNull(client.secrets().inNamespace(NS).withName("load-m-run-secret").get());
        }
    }
}
