package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.loadgen.cli.LoadGeneratorMain;
import io.ricochet.loadgen.k8s.JvmSizing;
import io.ricochet.loadgen.k8s.RestrictedProfile;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.WorkloadParameters;
import io.ricochet.loadgen.workload.WorkloadProvider;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * k8s/workload, the example on Kubernetes, against this module's own code: the KV server's args parse with its CLI and
 * its ports and probes are the flags', and the workload and parameters of the controller's scenario (a file in a
 * ConfigMap the controller's pod mounts) are ones this jar's provider takes.
 * (load-generator's ManifestsTest checks the built profile as a whole.)
 */
class KvServerManifestTest {
    private static final Path PROFILE = Path.of("..", "k8s", "workload");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\((\\w+)\\)");
    /** Where the controller's --scenario finds its file: the scenario ConfigMap's one key, mounted read-only. */
    private static final Path SCENARIO_FILE = Path.of("/etc/ricochet/scenario.yaml");

    private static <T> T read(String file, Class<T> type) throws Exception {
        try (InputStream in = Files.newInputStream(PROFILE.resolve(file))) {
            return assertInstanceOf(type, Serialization.unmarshal(in));
        }
    }

    @Test
    void theKvServersArgsParseWithItsCliAndItsPortsAndProbesAreTheFlags() throws Exception {
        Deployment deployment = read("kv-server/deployment.yaml", Deployment.class);
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        KvServerCommand command = parse(container);
        assertEquals("0.0.0.0", command.host);
        assertEquals(Map.of("tcp/TCP", command.tcpPort, "rpc/TCP", command.rpcPort), container.getPorts().stream()
                .collect(Collectors.toMap(p -> p.getName() + "/" + p.getProtocol(), ContainerPort::getContainerPort)));
        // No /health: started, Ready, and alive, while the text port accepts.
        assertEquals("tcp", container.getReadinessProbe().getTcpSocket().getPort().getStrVal());
        assertEquals("tcp", container.getLivenessProbe().getTcpSocket().getPort().getStrVal());
        assertEquals("tcp", container.getStartupProbe().getTcpSocket().getPort().getStrVal());
        List<String> java = container.getCommand();
        assertEquals(KvServer.class.getName(), java.get(java.size() - 1));
    }

    private static KvServerCommand parse(Container container) {
        CommandLine cli = KvServerCommand.commandLine(new CompletableFuture<>());
        cli.parseArgs(container.getArgs().toArray(String[]::new));
        return cli.getCommand();
    }

    @Test
    void theControllersWorkloadIsOneThisJarProvidesAndTakesItsParameters(@TempDir Path dir) throws Exception {
        Scenario scenario = ScenarioFiles.read(scenarioFile(read("load-controller/job.yaml", Job.class), dir), null);
        String name = scenario.workload().name();
        assertNotNull(name, "no workload in the controller's scenario");
        WorkloadProvider provider = ServiceLoader.load(WorkloadProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
        assertInstanceOf(KvWorkloads.Text.class, provider);
        Map<String, String> parameters = scenario.workload().params();
        WorkloadParameters given = WorkloadParameters.of(parameters);
        // The controller runs it with echo, a framed command; every parameter is one it reads.
        assertEquals(Command.ECHO, scenario.command());
        assertInstanceOf(FrameWorkload.class, provider.create(given));
        assertEquals(Set.of(), given.unread());
        // Each connection puts up to keys=N keys of its own: the server's store holds a whole run's.
        KvServerCommand server = parse(read("kv-server/deployment.yaml", Deployment.class).getSpec().getTemplate()
                .getSpec().getContainers().get(0));
        long keys = Long.parseLong(parameters.get("keys"));
        long connections = scenario.connections();
        assertTrue(server.maxKeys >= connections * keys, server.maxKeys + " < " + connections + " x " + keys);
        // Its target is the KV server's text port.
        assertEquals(server.tcpPort, scenario.target().first().getPort());
    }

    /**
     * The controller's scenario: --scenario names scenario.yaml where the controller mounts, read-only, a volume of the
     * scenario ConfigMap, whose one key that file is. That file, written in {@code dir} for the CLI to read.
     */
    private static Path scenarioFile(Job job, Path dir) throws Exception {
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        Container container = pod.getContainers().get(0);
        assertEquals(List.of("--scenario=" + SCENARIO_FILE), container.getArgs().stream()
                .filter(a -> a.startsWith("--scenario")).toList());
        VolumeMount mount = container.getVolumeMounts().stream()
                .filter(m -> Path.of(m.getMountPath()).equals(SCENARIO_FILE.getParent())).findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + SCENARIO_FILE.getParent()));
        assertEquals(Boolean.TRUE, mount.getReadOnly(), mount.toString());
        assertNull(mount.getSubPath(), mount.toString());
        Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + mount.getName()));
        ConfigMap scenario = read("load-controller/scenario-configmap.yaml", ConfigMap.class);
        assertEquals(scenario.getMetadata().getName(), volume.getConfigMap().getName());
        // Every key a file of its own name: no items: renaming it.
        assertTrue(volume.getConfigMap().getItems() == null || volume.getConfigMap().getItems().isEmpty(),
                volume.toString());
        String name = SCENARIO_FILE.getFileName().toString();
        assertEquals(Set.of(name), scenario.getData().keySet());
        Path file = dir.resolve(name);
        Files.writeString(file, scenario.getData().get(name));
        return file;
    }

    /**
     * The workers' Job the profile's controller would create, as {@code plan --manifests} prints it from the controller's
     * own args and scenario file (with this module's workload on the class path, as the image has it in /app/workloads/): pods a namespace
     * enforcing the restricted Pod Security profile admits, whose JVM fits the profile's worker memory. load-generator's
     * ManifestsTest checks the echo profiles' the same way; their scenario needs no workload jar.
     */
    @Test
    void theWorkersJobTheControllerWouldCreateMeetsTheRestrictedProfile(@TempDir Path dir) throws Exception {
        Job job = read("load-controller/job.yaml", Job.class);
        Map<String, String> env = new java.util.HashMap<>(read("load-controller/configmap.yaml", ConfigMap.class)
                .getData());
        // The downward API's variables: the label job-name is the one Kubernetes puts on a Job's pods.
        for (var e : job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
            if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
                env.put(e.getName(), e.getValueFrom().getFieldRef().getFieldPath().equals("metadata.labels['job-name']")
                        ? job.getMetadata().getName() : "<" + e.getValueFrom().getFieldRef().getFieldPath() + ">");
            }
        }
        String scenario = "--scenario=" + scenarioFile(job, dir);
        List<String> args = new ArrayList<>(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs().stream()
                .map(a -> expand(a, env)).map(a -> a.equals("--scenario=" + SCENARIO_FILE) ? scenario : a).toList());
        assertTrue(args.contains(scenario), args.toString());
        assertEquals("controller", args.get(0));
        args.set(0, "plan");
        args.add(1, "--manifests");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = LoadGeneratorMain.newCommandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        assertEquals(0, cli.execute(args.toArray(String[]::new)), out + "" + err);
        List<HasMetadata> printed = new ArrayList<>();
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(out.toString())) {
            while (docs.hasNext()) {
                printed.add(Serialization.unmarshal(docs.next().toString(), HasMetadata.class));
            }
        }
        assertEquals(List.of("Secret", "Job"), printed.stream().map(HasMetadata::getKind).toList());
        PodSpec pod = ((Job) printed.get(1)).getSpec().getTemplate().getSpec();
        assertEquals(List.of(), RestrictedProfile.violations("worker", pod, false));
        Container worker = pod.getContainers().get(0);
        Quantity memory = worker.getResources().getLimits().get("memory");
        assertEquals(new Quantity(env.get("WORKER_MEMORY")), memory);
        assertEquals(List.of(), JvmSizing.violations("worker", worker.getCommand(), memory,
                JvmSizing.writablePaths(pod, worker)));
        assertEquals(job.getSpec().getTtlSecondsAfterFinished(),
                ((Job) printed.get(1)).getSpec().getTtlSecondsAfterFinished());
    }

    /** Kubernetes' $(VAR) expansion in args, from the ConfigMap and the downward API. */
    private static String expand(String arg, Map<String, String> env) {
        Matcher m = VARIABLE.matcher(arg);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = env.get(m.group(1));
            assertNotNull(value, "no " + m.group(1) + " in the ConfigMap");
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }
}
