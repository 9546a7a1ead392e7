package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.loadgen.cli.LoadGeneratorMain;
import io.ricochet.loadgen.k8s.JvmSizing;
import io.ricochet.loadgen.k8s.RestrictedProfile;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.WorkloadParameters;
import io.ricochet.loadgen.workload.WorkloadProvider;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * k8s/workload, the example on Kubernetes, against this module's own code: the KV server's args parse with its CLI and
 * its ports and probes are the flags', and the controller's workload and parameters are ones this jar's provider takes.
 * (load-generator's ManifestsTest checks the built profile as a whole.)
 */
class KvServerManifestTest {
    private static final Path PROFILE = Path.of("..", "k8s", "workload");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\((\\w+)\\)");

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
    void theControllersWorkloadIsOneThisJarProvidesAndTakesItsParameters() throws Exception {
        Job job = read("load-controller/job.yaml", Job.class);
        Map<String, String> env = read("load-controller/configmap.yaml", ConfigMap.class).getData();
        String name = null;
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String arg : job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()) {
            String expanded = expand(arg, env);
            if (expanded.startsWith("--workload=")) {
                name = expanded.substring("--workload=".length());
            } else if (expanded.startsWith("--workload-param=")) {
                String[] kv = expanded.substring("--workload-param=".length()).split("=", 2);
                parameters.put(kv[0], kv[1]);
            }
        }
        assertNotNull(name, "no --workload in the controller's args");
        String wanted = name;
        WorkloadProvider provider = ServiceLoader.load(WorkloadProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(wanted)).findFirst().orElseThrow(() -> new AssertionError(wanted));
        assertInstanceOf(KvWorkloads.Text.class, provider);
        WorkloadParameters given = WorkloadParameters.of(parameters);
        // The controller runs it with echo, a framed command; every parameter is one it reads.
        assertInstanceOf(FrameWorkload.class, provider.create(given));
        assertEquals(Set.of(), given.unread());
        // Each connection puts up to keys=N keys of its own: the server's store holds a whole run's.
        KvServerCommand server = parse(read("kv-server/deployment.yaml", Deployment.class).getSpec().getTemplate()
                .getSpec().getContainers().get(0));
        long keys = Long.parseLong(parameters.get("keys"));
        long connections = Long.parseLong(env.get("CONNECTIONS"));
        assertTrue(server.maxKeys >= connections * keys, server.maxKeys + " < " + connections + " x " + keys);
    }

    /**
     * The workers' Job the profile's controller would create, as {@code plan --manifests} prints it from the controller's
     * own args (with this module's workload on the class path, as the image has it in /app/workloads/): pods a namespace
     * enforcing the restricted Pod Security profile admits, whose JVM fits the profile's worker memory. load-generator's
     * ManifestsTest checks the echo profiles' the same way; their scenario needs no workload jar.
     */
    @Test
    void theWorkersJobTheControllerWouldCreateMeetsTheRestrictedProfile() throws Exception {
        Job job = read("load-controller/job.yaml", Job.class);
        Map<String, String> env = read("load-controller/configmap.yaml", ConfigMap.class).getData();
        List<String> args = new ArrayList<>(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs().stream()
                .map(a -> expand(a, env)).toList());
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

    /** Kubernetes' $(VAR) expansion in args, from the ConfigMap. */
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
