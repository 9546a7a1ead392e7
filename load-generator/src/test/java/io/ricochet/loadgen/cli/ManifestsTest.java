package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.k8s.JobFactory;
import io.ricochet.loadgen.k8s.JvmSizing;
import io.ricochet.loadgen.k8s.KubernetesExecutor;
import io.ricochet.loadgen.k8s.RunVerdict;
import io.ricochet.loadgen.k8s.KubernetesSettings;
import io.ricochet.loadgen.k8s.RestrictedProfile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * The k8s/ manifests. Every file parses into Fabric8's model, and every profile, as {@code kubectl kustomize} builds it,
 * agrees with itself (selectors, ports, image, the wait for the server under test, the report volume) and with the CLIs
 * that run it (the controller's flags, and the scenario file it reads from a ConfigMap), and every pod of every profile, with the workers' Job each controller would create, meets the restricted
 * Pod Security profile with its JVMs sized to their memory limits. The server under test is the echo server, except in
 * k8s/workload, where it is the example's KV service and the controller runs a workload from the profile's own image
 * (examples/Dockerfile). The built checks need kubectl: .ci/run installs Debian's kubernetes-client when there is none,
 * whose kustomize (v2.0.3) builds the same objects as a current one (v5) from these files.
 */
@Timeout(120)
class ManifestsTest {
    private static final Path K8S = Path.of("..", "k8s");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern VARIABLE = Pattern.compile("\\$\\((\\w+)\\)");
    private static final Map<String, List<HasMetadata>> BUILT = new ConcurrentHashMap<>();
    private static final String ECHO = "echo-server";
    private static final String READY_PODS = "echo-server-pods";
    private static final String CONTROLLER = "ricochet-load-controller";
    private static final String CONFIG = "ricochet-load-config";
    /** The ConfigMap whose one key is the scenario file the controller runs, and where its container finds it. */
    private static final String SCENARIO = "ricochet-scenario";
    private static final Path SCENARIO_FILE = Path.of("/etc/ricochet/scenario.yaml");
    private static final String KV = "kv-server";
    /** The kustomizations that are parts profiles are built from, not profiles themselves. */
    private static final String CONTROLLER_PART = "base/load-controller";
    /** The profiles whose kustomization sets the image (images:); every other takes base's. */
    private static final Set<String> OWN_IMAGE = Set.of("base", "workload");
    /** The workload profile's workload, found by name in its image's /app/workloads/. */
    private static final String WORKLOAD = "workload";
    private static final String KV_TEXT = "kv-text";

    /**
     * A server under test: its Deployment and Service, the headless Service of its Ready pods, the ConfigMap variable
     * that says how many the controller waits for, and its container's ports, each bound by its {@code --NAME-port}.
     */
    private record ServerUnderTest(String name, String readyPods, String replicasVariable, List<String> ports) {
        boolean servesMetrics() {
            return ports.contains("metrics");
        }
    }

    private static final ServerUnderTest ECHO_SERVER = new ServerUnderTest(ECHO, READY_PODS, "ECHO_SERVER_REPLICAS",
            List.of("tcp", "udp", "rpc", "metrics"));
    private static final ServerUnderTest KV_SERVER = new ServerUnderTest(KV, "kv-server-pods", "KV_SERVER_REPLICAS",
            List.of("tcp", "rpc"));
    /** Each profile's server under test: the Deployment its scenario's target Service selects (a test checks). */
    private static final Map<String, ServerUnderTest> SERVER_UNDER_TEST = Map.of(".", ECHO_SERVER, "base", ECHO_SERVER,
            "small", ECHO_SERVER, "massive", ECHO_SERVER, "report-pvc", ECHO_SERVER, WORKLOAD, KV_SERVER);
    /** Each profile's scenario command and connections, as docs/kubernetes.md gives them. */
    private static final Map<String, Command> COMMAND = Map.of(".", Command.MASSIVE, "base", Command.MASSIVE,
            "small", Command.MASSIVE, "massive", Command.MASSIVE, "report-pvc", Command.MASSIVE, WORKLOAD, Command.ECHO);
    private static final Map<String, Integer> CONNECTIONS = Map.of(".", 20_000, "base", 20_000, "small", 20_000,
            "massive", 2_000_000, "report-pvc", 20_000, WORKLOAD, 400);

    /** Every directory with a kustomization, as a path under k8s/ ("." for k8s/ itself). */
    static Stream<String> kustomizations() throws IOException {
        try (Stream<Path> files = Files.walk(K8S)) {
            return files.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .map(p -> K8S.relativize(p.getParent()).toString()).map(p -> p.isEmpty() ? "." : p).sorted()
                    .toList().stream();
        }
    }

    /** Every kustomization but the parts: what {@code kubectl apply -k} is given. */
    static Stream<String> profiles() throws IOException {
        return kustomizations().filter(k -> !k.equals(CONTROLLER_PART));
    }

    @Test
    void theProfilesAreTheOnesTheDocsName() throws IOException {
        assertEquals(List.of(".", "base", "massive", "report-pvc", "small", "workload"), profiles().toList());
        assertEquals(List.of(".", "base", CONTROLLER_PART, "massive", "report-pvc", "small", "workload"),
                kustomizations().toList());
        assertEquals(new TreeSet<>(SERVER_UNDER_TEST.keySet()), new TreeSet<>(profiles().toList()));
    }

    @Test
    void everyManifestParsesIntoAFabric8ModelAndEveryKustomizationListsItsFiles() throws IOException {
        List<Path> yamls;
        try (Stream<Path> files = Files.walk(K8S)) {
            yamls = files.filter(p -> p.toString().endsWith(".yaml")).toList();
        }
        assertTrue(yamls.size() >= 18, yamls.toString());
        for (Path yaml : yamls) {
            if (yaml.getFileName().toString().equals("kustomization.yaml")) {
                for (String entry : listed(yaml)) {
                    assertTrue(Files.exists(yaml.getParent().resolve(entry)), yaml + " lists " + entry);
                }
                continue;
            }
            try (InputStream in = Files.newInputStream(yaml)) {
                assertInstanceOf(HasMetadata.class, Serialization.unmarshal(in), yaml.toString());
            }
        }
        // Every manifest of base's directories, and of the workload profile's, is in its build (directly, or through
        // a part it lists under bases:).
        Set<Path> inBase = reached(K8S.resolve("base"));
        try (Stream<Path> files = Files.list(K8S.resolve("base/echo-server"));
                Stream<Path> more = Files.list(K8S.resolve("base/load-controller"))) {
            Stream.concat(files, more).filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
                    .forEach(p -> assertTrue(inBase.contains(p.toAbsolutePath().normalize()),
                            "k8s/base/kustomization.yaml leaves out " + p));
        }
        Set<Path> inWorkload = reached(K8S.resolve(WORKLOAD));
        try (Stream<Path> files = Files.walk(K8S.resolve(WORKLOAD))) {
            files.filter(p -> p.toString().endsWith(".yaml") && !p.getFileName().toString().equals("kustomization.yaml"))
                    .forEach(p -> assertTrue(inWorkload.contains(p.toAbsolutePath().normalize()),
                            "k8s/workload/kustomization.yaml leaves out " + p));
        }
    }

    /** The files a kustomization's build reads: those it lists, and those of the directories it lists, in turn. */
    private static Set<Path> reached(Path dir) throws IOException {
        Set<Path> files = new HashSet<>();
        for (String entry : listed(dir.resolve("kustomization.yaml"))) {
            Path p = dir.resolve(entry).toAbsolutePath().normalize();
            if (Files.isDirectory(p)) {
                files.addAll(reached(p));
            } else {
                files.add(p);
            }
        }
        return files;
    }

    private static List<String> listed(Path kustomization) throws IOException {
        JsonNode k = YAML.readTree(kustomization.toFile());
        List<String> listed = new ArrayList<>();
        for (String field : List.of("resources", "bases", "patchesStrategicMerge")) {
            k.path(field).forEach(r -> listed.add(r.asText()));
        }
        return listed;
    }

    /**
     * Debian's kubectl 1.20 (kustomize v2.0.3) takes a directory only under bases: and a patch file only under
     * patchesStrategicMerge: (its patches: is another field). This machine's kubectl builds the newer forms, so
     * they are caught here rather than on CI.
     */
    @ParameterizedTest
    @MethodSource("kustomizations")
    void everyKustomizationUsesFormsThatKustomizeV2AlsoBuilds(String profile) throws IOException {
        Path dir = K8S.resolve(profile);
        JsonNode k = YAML.readTree(dir.resolve("kustomization.yaml").toFile());
        Set<String> fields = new TreeSet<>();
        k.fieldNames().forEachRemaining(fields::add);
        assertTrue(Set.of("apiVersion", "kind", "resources", "bases", "patchesStrategicMerge", "images").containsAll(fields),
                profile + ": " + fields);
        k.path("resources").forEach(r -> assertTrue(Files.isRegularFile(dir.resolve(r.asText())), profile + ": " + r));
        k.path("bases").forEach(b -> assertTrue(Files.isDirectory(dir.resolve(b.asText())), profile + ": " + b));
        // The image is set in one place: base's for the echo profiles; the workload profile's own, with its jar.
        assertEquals(OWN_IMAGE.contains(profile), k.has("images"), profile);
    }

    /** The built profile: {@code kubectl kustomize k8s/PROFILE}, each object in its Fabric8 model. */
    private static List<HasMetadata> build(String profile) {
        Optional<Path> kubectl = onPath("kubectl");
        assumeTrue(kubectl.isPresent(), "no kubectl on the PATH, so no profile is built and checked "
                + "(.ci/run installs Debian's kubernetes-client when kubectl is missing)");
        return BUILT.computeIfAbsent(profile, p -> kustomize(kubectl.get(), p));
    }

    private static List<HasMetadata> kustomize(Path kubectl, String profile) {
        try {
            Path err = Files.createTempFile("kustomize", ".err");
            try {
                Process process = new ProcessBuilder(kubectl.toString(), "kustomize", K8S.resolve(profile).toString())
                        .redirectError(err.toFile()).start();
                byte[] out = process.getInputStream().readAllBytes();
                assertTrue(process.waitFor(60, TimeUnit.SECONDS), "kubectl kustomize k8s/" + profile + " still running");
                assertEquals(0, process.exitValue(), "kubectl kustomize k8s/" + profile + ": " + Files.readString(err));
                List<HasMetadata> objects = new ArrayList<>();
                try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(out)) {
                    while (docs.hasNext()) {
                        Object parsed = Serialization.unmarshal(docs.next().toString());
                        assertFalse(parsed instanceof GenericKubernetesResource, profile + ": a kind Fabric8 does not model: " + parsed);
                        objects.add(assertInstanceOf(HasMetadata.class, parsed, profile));
                    }
                }
                return objects;
            } finally {
                Files.delete(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Optional<Path> onPath(String command) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, command)).filter(Files::isExecutable).findFirst();
    }

    private static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type, String name) {
        List<T> found = objects.stream().filter(type::isInstance).map(type::cast)
                .filter(o -> o.getMetadata().getName().equals(name)).toList();
        assertEquals(1, found.size(), type.getSimpleName() + " " + name + " in " + names(objects));
        return found.get(0);
    }

    private static List<String> names(List<HasMetadata> objects) {
        return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList();
    }

    private static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void everyProfileBuildsIntoFabric8ModelsWithTheRoleTheExecutorNeeds(String profile) {
        List<HasMetadata> objects = build(profile);
        assertEquals(objects.size(), new HashSet<>(names(objects)).size(), names(objects).toString());
        ServerUnderTest server = SERVER_UNDER_TEST.get(profile);
        one(objects, Deployment.class, server.name());
        one(objects, Service.class, server.name());
        one(objects, Service.class, server.readyPods());
        one(objects, Service.class, CONTROLLER);
        // Nothing else: no server that nothing loads (the workload profile has no echo server), nothing left over.
        Set<String> expected = new TreeSet<>(List.of("ServiceAccount/" + CONTROLLER, "Role/" + CONTROLLER,
                "RoleBinding/" + CONTROLLER, "Service/" + CONTROLLER, "ConfigMap/" + CONFIG, "ConfigMap/" + SCENARIO,
                "Job/" + CONTROLLER,
                "Deployment/" + server.name(), "Service/" + server.name(), "Service/" + server.readyPods()));
        if (profile.equals("report-pvc")) {
            expected.add("PersistentVolumeClaim/ricochet-report");
        }
        assertEquals(expected, new TreeSet<>(names(objects)));
        one(objects, ConfigMap.class, CONFIG);
        one(objects, ConfigMap.class, SCENARIO);
        Role role = one(objects, Role.class, CONTROLLER);
        Map<String, Set<String>> granted = new HashMap<>();
        for (PolicyRule rule : role.getRules()) {
            for (String resource : rule.getResources()) {
                granted.computeIfAbsent(resource, r -> new HashSet<>()).addAll(rule.getVerbs());
            }
        }
        // Exactly what the controller calls: its executor's, and the verdict's.
        Map<String, Set<String>> called = new HashMap<>();
        for (Map<String, Set<String>> p : List.of(KubernetesExecutor.PERMISSIONS, RunVerdict.PERMISSIONS)) {
            p.forEach((resource, verbs) -> called.computeIfAbsent(resource, r -> new HashSet<>()).addAll(verbs));
        }
        assertEquals(called, granted);
        RoleBinding binding = one(objects, RoleBinding.class, CONTROLLER);
        ServiceAccount account = one(objects, ServiceAccount.class, CONTROLLER);
        assertEquals(role.getMetadata().getName(), binding.getRoleRef().getName());
        assertEquals(account.getMetadata().getName(), binding.getSubjects().get(0).getName());
        assertEquals(account.getMetadata().getName(),
                one(objects, Job.class, CONTROLLER).getSpec().getTemplate().getSpec().getServiceAccountName());
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void everyServiceSelectsExactlyItsPodsAndNamesTheirPorts(String profile) {
        List<HasMetadata> objects = build(profile);
        ServerUnderTest server = SERVER_UNDER_TEST.get(profile);
        Deployment deployment = one(objects, Deployment.class, server.name());
        Map<String, String> serverLabels = deployment.getSpec().getTemplate().getMetadata().getLabels();
        assertTrue(serverLabels.entrySet().containsAll(deployment.getSpec().getSelector().getMatchLabels().entrySet()),
                deployment.getSpec().getSelector().toString());
        Map<String, PodTemplateSpec> templates = Map.of(server.name(), deployment.getSpec().getTemplate(),
                CONTROLLER, one(objects, Job.class, CONTROLLER).getSpec().getTemplate());
        // The workers' pods, which the controller makes: no Service may take them for the server or the controller.
        Map<String, String> workerLabels = JobFactory.labels(new KubernetesSettings(null, "run", null, 1, 1, "1", "1Gi",
                "x", false, null, null));
        Map<String, String> selects = new HashMap<>();
        for (Service service : all(objects, Service.class)) {
            Map<String, String> selector = service.getSpec().getSelector();
            List<String> selected = templates.entrySet().stream()
                    .filter(t -> t.getValue().getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
                    .map(Map.Entry::getKey).toList();
            assertEquals(1, selected.size(), service.getMetadata().getName() + " selects " + selected);
            assertFalse(workerLabels.entrySet().containsAll(selector.entrySet()), service.getMetadata().getName());
            selects.put(service.getMetadata().getName(), selected.get(0));
            Container container = templates.get(selected.get(0)).getSpec().getContainers().get(0);
            for (ServicePort port : service.getSpec().getPorts()) {
                ContainerPort target = port(container, port.getTargetPort().getStrVal());
                assertEquals(port.getProtocol(), target.getProtocol(), port.toString());
            }
        }
        assertEquals(Map.of(server.name(), server.name(), server.readyPods(), server.name(), CONTROLLER, CONTROLLER),
                selects);
        assertEquals("None", one(objects, Service.class, server.readyPods()).getSpec().getClusterIP());
    }

    private static ContainerPort port(Container container, String name) {
        List<ContainerPort> named = container.getPorts().stream().filter(p -> name.equals(p.getName())).toList();
        assertEquals(1, named.size(), container.getName() + " has no port " + name);
        return named.get(0);
    }

    private static int servicePort(Service service, String name) {
        return service.getSpec().getPorts().stream().filter(p -> p.getName().equals(name)).findFirst().orElseThrow().getPort();
    }

    /**
     * The server under test listens where its container's ports say, is Ready when it can serve, and says where its
     * metrics are if it has them: the echo server's /health and /metrics on its metrics port; the KV service, which has
     * neither, Ready once its TCP port accepts, and no scrape annotation.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void theServersFlagsAreItsContainerPortsProbesAndScrapeAnnotation(String profile) {
        ServerUnderTest server = SERVER_UNDER_TEST.get(profile);
        Deployment deployment = one(build(profile), Deployment.class, server.name());
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> flags = flags(container);
        assertEquals(server.ports(), container.getPorts().stream().map(ContainerPort::getName).toList());
        for (String name : server.ports()) {
            assertEquals(Integer.parseInt(flags.get("--" + name + "-port")), port(container, name).getContainerPort(), name);
        }
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        if (server.servesMetrics()) {
            assertEquals("metrics", container.getReadinessProbe().getHttpGet().getPort().getStrVal());
            assertEquals("/health", container.getReadinessProbe().getHttpGet().getPath());
            assertEquals(flags.get("--metrics-port"), annotations.get("prometheus.io/port"));
            // Started once /health answers: until then, neither probe runs, so a slow start is not a restart.
            assertEquals(container.getReadinessProbe().getHttpGet(), container.getStartupProbe().getHttpGet());
            assertEquals(container.getReadinessProbe().getHttpGet(), container.getLivenessProbe().getHttpGet());
        } else {
            assertNull(container.getReadinessProbe().getHttpGet());
            assertEquals("tcp", container.getReadinessProbe().getTcpSocket().getPort().getStrVal());
            assertEquals("tcp", container.getLivenessProbe().getTcpSocket().getPort().getStrVal());
            assertEquals("tcp", container.getStartupProbe().getTcpSocket().getPort().getStrVal());
            assertTrue(annotations == null || annotations.keySet().stream().noneMatch(a -> a.startsWith("prometheus.io/")),
                    String.valueOf(annotations));
        }
    }

    /** A container's {@code --flag=value} args by flag ("" for a bare flag). */
    private static Map<String, String> flags(Container container) {
        return container.getArgs().stream().map(a -> a.split("=", 2))
                .collect(Collectors.toMap(a -> a[0], a -> a.length > 1 ? a[1] : ""));
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void theControllersArgsParseWithItsProfilesParametersAndAgreeWithItsServicesAndPorts(String profile,
            @TempDir Path dir) throws IOException {
        List<HasMetadata> objects = build(profile);
        Job job = one(objects, Job.class, CONTROLLER);
        Container container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        Service coordination = one(objects, Service.class, CONTROLLER);
        ServerUnderTest server = SERVER_UNDER_TEST.get(profile);
        Service serverService = one(objects, Service.class, server.name());
        Map<String, String> env = one(objects, ConfigMap.class, CONFIG).getData();
        assertEquals(CONFIG, container.getEnvFrom().get(0).getConfigMapRef().getName());
        ControllerCommand controller = controller(objects, dir);
        assertEquals("kubernetes", controller.executor);
        assertEquals(Integer.parseInt(env.get("WORKERS")), controller.workers);
        // No --image: the workers run the controller pod's own image, which kustomize's images: sets.
        assertNull(controller.kubernetes.image);
        assertEquals(servicePort(coordination, "coordination"), controller.port);
        assertEquals(controller.port, port(container, "coordination").getContainerPort());
        assertEquals(coordination.getMetadata().getName(), controller.advertise);
        // The scenario is the mounted file alone: no scenario command or options after the controller's flags.
        assertEquals(List.of(), controller.scenario);
        Scenario whole = ScenarioFiles.read(controller.scenarioFile, null);
        assertEquals(COMMAND.get(profile), whole.command());
        assertEquals(serverService.getMetadata().getName(), whole.target().first().getHostString());
        assertEquals(servicePort(serverService, "tcp"), whole.target().first().getPort());
        assertEquals(1, whole.target().size());
        // The server under test is the one Deployment whose pods the target Service selects.
        Map<String, String> targeted = serverService.getSpec().getSelector();
        assertEquals(List.of(server.name()), all(objects, Deployment.class).stream()
                .filter(d -> d.getSpec().getTemplate().getMetadata().getLabels().entrySet().containsAll(targeted.entrySet()))
                .map(d -> d.getMetadata().getName()).toList());
        Deployment deployment = one(objects, Deployment.class, server.name());
        if (server.servesMetrics()) {
            // Every replica is scraped at its own IP: the pods the Deployment selects, at its metrics port.
            assertEquals(deployment.getSpec().getSelector().getMatchLabels(), controller.kubernetes.scrapeSelector);
            assertEquals(port(deployment.getSpec().getTemplate().getSpec().getContainers().get(0), "metrics")
                    .getContainerPort(), controller.kubernetes.scrapePort);
            assertEquals(deployment.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/path"),
                    controller.kubernetes.scrapePath);
        } else {
            // A server with no /metrics is not scraped: a selector would point the controller at pods without one.
            assertNull(controller.kubernetes.scrapeSelector);
        }
        assertEquals(List.of(), whole.scrape());
        // The workload: the echo profiles send the echo server's generated bodies; the workload profile names its
        // workload and parameters, with no jars: its image's /app/workloads/ has the jar.
        if (profile.equals(WORKLOAD)) {
            assertEquals(KV_TEXT, whole.workload().name());
            assertEquals(Map.of("keys", "100", "get-share", "0.5"), whole.workload().params());
            assertEquals(List.of(), whole.workload().jars());
        } else {
            assertNull(whole.workload().name());
        }
        // The merged run's /metrics: the container's metrics port, which the pod's annotation names, on every address.
        assertEquals(port(container, "metrics").getContainerPort(), whole.metricsPort());
        assertEquals(Integer.toString(whole.metricsPort()),
                job.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/port"));
        assertEquals("0.0.0.0", whole.metricsHost());
        // The summary goes to the log; the report files to the volume named report.
        assertTrue(whole.json());
        assertEquals(Path.of(container.getVolumeMounts().stream().filter(m -> m.getName().equals("report"))
                .findFirst().orElseThrow().getMountPath()), whole.report());
        // The shards the controller would hand out split every connection.
        double[] weights = equal(controller.workers);
        List<Scenario> shards = java.util.stream.IntStream.range(0, controller.workers)
                .mapToObj(i -> whole.shard(i, weights)).toList();
        assertEquals((long) CONNECTIONS.get(profile), shards.stream().mapToLong(Scenario::connections).sum());
        // And every worker runs the same workload with the same parameters.
        assertEquals(profile.equals(WORKLOAD), whole.workload().isNamed(), whole.workload().toString());
        for (Scenario shard : shards) {
            assertEquals(whole.workload(), shard.workload());
        }
    }

    /**
     * Where the controller finds its scenario: --scenario names scenario.yaml in the directory where its container
     * mounts, read-only, a volume of the scenario ConfigMap, whose one key that file is. The ConfigMap's file, written
     * in {@code dir} for the CLI to read.
     */
    private static Path scenarioFile(List<HasMetadata> objects, Path dir) throws IOException {
        PodSpec pod = one(objects, Job.class, CONTROLLER).getSpec().getTemplate().getSpec();
        Container container = pod.getContainers().get(0);
        assertEquals(List.of("--scenario=" + SCENARIO_FILE), container.getArgs().stream()
                .filter(a -> a.startsWith("--scenario")).toList());
        List<VolumeMount> mounts = container.getVolumeMounts().stream()
                .filter(m -> Path.of(m.getMountPath()).equals(SCENARIO_FILE.getParent())).toList();
        assertEquals(1, mounts.size(), container.getVolumeMounts().toString());
        VolumeMount mount = mounts.get(0);
        assertEquals(Boolean.TRUE, mount.getReadOnly(), mount.toString());
        assertNull(mount.getSubPath(), mount.toString());
        Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + mount.getName()));
        assertNotNull(volume.getConfigMap(), volume.toString());
        assertEquals(SCENARIO, volume.getConfigMap().getName());
        // Every key a file of its own name: no items: renaming it.
        assertTrue(volume.getConfigMap().getItems() == null || volume.getConfigMap().getItems().isEmpty(),
                volume.toString());
        Map<String, String> data = one(objects, ConfigMap.class, SCENARIO).getData();
        String name = SCENARIO_FILE.getFileName().toString();
        assertEquals(Set.of(name), data.keySet());
        Path file = dir.resolve(name);
        Files.writeString(file, data.get(name), StandardCharsets.UTF_8);
        return file;
    }

    /** The scenario a built profile's controller runs, read from its ConfigMap as the controller reads it. */
    private static Scenario scenario(List<HasMetadata> objects, Path dir) throws IOException {
        return ScenarioFiles.read(scenarioFile(objects, dir), null);
    }

    private static double[] equal(int n) {
        double[] w = new double[n];
        Arrays.fill(w, 1);
        return w;
    }

    /** Kubernetes' $(VAR) expansion in args, from the container's environment. */
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

    /**
     * The files name the image without a tag; only an images: gives it one, for every container: base's in the echo
     * profiles, and in the workload profile its own (Ricochet's image with the workload jar added).
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyContainerRunsTheImageThatKustomizeImagesSets(String profile) throws IOException {
        JsonNode images = YAML.readTree(K8S.resolve(OWN_IMAGE.contains(profile) ? profile : "base")
                .resolve("kustomization.yaml").toFile()).get("images");
        assertEquals(1, images.size(), images.toString());
        JsonNode image = images.get(0);
        String expected = image.get("newName").asText() + ":" + image.get("newTag").asText();
        List<PodSpec> pods = new ArrayList<>();
        List<HasMetadata> objects = build(profile);
        all(objects, Deployment.class).forEach(d -> pods.add(d.getSpec().getTemplate().getSpec()));
        all(objects, Job.class).forEach(j -> pods.add(j.getSpec().getTemplate().getSpec()));
        assertEquals(2, pods.size());
        for (PodSpec pod : pods) {
            Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream())
                    .forEach(c -> assertEquals(expected, c.getImage(), c.getName()));
        }
        for (String file : List.of("base/echo-server/deployment.yaml", "base/load-controller/job.yaml",
                "workload/kv-server/deployment.yaml", "workload/load-controller/job.yaml")) {
            String raw = Files.readString(K8S.resolve(file), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("image: (\\S+)").matcher(raw);
            while (m.find()) {
                assertEquals(image.get("name").asText(), m.group(1), file);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void theControllerWaitsForAsManyReadyServerPodsAsTheDeploymentHas(String profile) {
        List<HasMetadata> objects = build(profile);
        ServerUnderTest server = SERVER_UNDER_TEST.get(profile);
        Deployment deployment = one(objects, Deployment.class, server.name());
        PodTemplateSpec template = one(objects, Job.class, CONTROLLER).getSpec().getTemplate();
        Map<String, String> env = one(objects, ConfigMap.class, CONFIG).getData();
        assertEquals(deployment.getSpec().getReplicas(), Integer.valueOf(env.get(server.replicasVariable())));
        assertTrue(env.get("SERVER_READY_TIMEOUT").matches("\\d+[smh]"), env.get("SERVER_READY_TIMEOUT"));
        assertEquals(1, template.getSpec().getInitContainers().size());
        Container wait = template.getSpec().getInitContainers().get(0);
        assertEquals("wait-for-" + server.name(), wait.getName());
        assertEquals(CONFIG, wait.getEnvFrom().get(0).getConfigMapRef().getName());
        assertTrue(wait.getCommand().get(2).contains("getent ahosts " + server.readyPods() + " "), wait.getCommand().toString());
        assertEquals(deployment.getSpec().getSelector().getMatchLabels(),
                one(objects, Service.class, server.readyPods()).getSpec().getSelector());
        // `kubectl logs job/...` shows the controller's log, summary included, not the wait's.
        assertEquals(template.getSpec().getContainers().get(0).getName(),
                template.getMetadata().getAnnotations().get("kubectl.kubernetes.io/default-container"));
    }

    /**
     * The wait itself, in bash with a stand-in getent that resolves the headless Service as the cluster's DNS would:
     * one address per Ready pod, each on three lines (STREAM, DGRAM, RAW).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        ".        | 10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 | 4 | 0 | echo-server: all 4 replicas Ready",
        ".        | 10.0.0.1                            | 1 | 0 | echo-server: all 1 replicas Ready",
        ".        | 10.0.0.1 10.0.0.2 10.0.0.3          | 4 | 1 | echo-server: not all 4 replicas Ready after 1s",
        ".        | ''                                  | 1 | 1 | echo-server: not all 1 replicas Ready after 1s",
        "workload | 10.0.0.1 10.0.0.2                   | 2 | 0 | kv-server: all 2 replicas Ready",
        "workload | 10.0.0.1                            | 1 | 0 | kv-server: all 1 replicas Ready",
        "workload | 10.0.0.1                            | 2 | 1 | kv-server: not all 2 replicas Ready after 1s",
        "workload | ''                                  | 1 | 1 | kv-server: not all 1 replicas Ready after 1s"})
    void theWaitEndsOnceEveryReplicaIsReadyAndFailsAfterItsBound(String profile, String addresses, int replicas, int exit,
            String says, @TempDir Path bin) throws Exception {
        Optional<Path> bash = onPath("bash");
        assumeTrue(bash.isPresent(), "no bash to run the init container's script in");
        ServerUnderTest server = SERVER_UNDER_TEST.get(profile);
        Container wait = one(build(profile), Job.class, CONTROLLER).getSpec().getTemplate().getSpec().getInitContainers().get(0);
        assertEquals(List.of("bash", "-c"), wait.getCommand().subList(0, 2));
        Path getent = bin.resolve("getent");
        Files.writeString(getent, "#!/bin/sh\n[ \"$1 $2\" = \"ahosts " + server.readyPods() + "\" ] || exit 2\n"
                + "[ -n \"$ADDRESSES\" ] || exit 2\n"
                + "for a in $ADDRESSES; do for t in STREAM DGRAM RAW; do echo \"$a  $t " + server.readyPods() + "\"; done; done\n");
        assertTrue(getent.toFile().setExecutable(true));
        Path output = bin.resolve("output");
        ProcessBuilder builder = new ProcessBuilder(bash.get().toString(), "-c", wait.getCommand().get(2))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        builder.environment().put("ADDRESSES", addresses);
        builder.environment().put(server.replicasVariable(), Integer.toString(replicas));
        builder.environment().put("SERVER_READY_TIMEOUT", "1s");
        Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the wait outlived its bound");
        String said = Files.readString(output);
        assertEquals(exit, process.exitValue(), said);
        assertTrue(said.startsWith(says), said);
    }

    /** Every pod template of a built profile (its Deployments' and Jobs'), by the name of its owner. */
    private static Map<String, PodSpec> pods(List<HasMetadata> objects) {
        Map<String, PodSpec> pods = new TreeMap<>();
        all(objects, Deployment.class).forEach(d -> pods.put(d.getMetadata().getName(), d.getSpec().getTemplate().getSpec()));
        all(objects, Job.class).forEach(j -> pods.put(j.getMetadata().getName(), j.getSpec().getTemplate().getSpec()));
        return pods;
    }

    /**
     * Every pod of every profile is one a namespace that enforces the restricted Pod Security profile admits, with a
     * read-only root filesystem and memory bounds on every container, the init container's too. It runs as the image's
     * own user, and only the controller's pod, which calls the API, has its service account's token.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyPodOfEveryProfileMeetsTheRestrictedProfile(String profile) throws IOException {
        long[] user = imageUser();
        Map<String, PodSpec> pods = pods(build(profile));
        assertEquals(2, pods.size(), pods.keySet().toString());
        assertEquals(List.of(), pods.entrySet().stream().flatMap(pod -> RestrictedProfile.violations(pod.getKey(),
                pod.getValue(), CONTROLLER.equals(pod.getValue().getServiceAccountName())).stream()).toList(), profile);
        List<String> withToken = new ArrayList<>();
        pods.forEach((name, pod) -> {
            assertEquals(user[0], pod.getSecurityContext().getRunAsUser(), name);
            assertEquals(user[1], pod.getSecurityContext().getRunAsGroup(), name);
            // A claim mounted at /report (report-pvc) is made the group's, so that the controller may write it.
            assertEquals(user[1], pod.getSecurityContext().getFsGroup(), name);
            if (!Boolean.FALSE.equals(pod.getAutomountServiceAccountToken())) {
                withToken.add(name);
            }
        });
        assertEquals(List.of(CONTROLLER), withToken);
    }

    /** The report reader, applied after a run in a namespace that enforces the profile too. */
    @Test
    void theReportReaderMeetsTheRestrictedProfileToo() throws IOException {
        Pod reader;
        try (InputStream in = Files.newInputStream(K8S.resolve("report-pvc/reader.yaml"))) {
            reader = Serialization.unmarshal(in, Pod.class);
        }
        assertEquals(List.of(), RestrictedProfile.violations("reader", reader.getSpec(), false));
        assertEquals(imageUser()[0], reader.getSpec().getSecurityContext().getRunAsUser());
    }

    /**
     * Every JVM (the server's command, or the image's entrypoint, which the controller runs) keeps its heap and direct
     * memory within {@link JvmSizing#MAX_SHARE} of its container's memory limit, whatever the profile makes that limit,
     * and extracts Netty's native libraries to a volume it may write, its root filesystem being read-only.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyJvmFitsItsMemoryLimitAndWritesOnlyToItsVolumes(String profile) throws IOException {
        List<String> entrypoint = imageEntrypoint();
        int jvms = 0;
        for (Map.Entry<String, PodSpec> pod : pods(build(profile)).entrySet()) {
            for (Container c : Stream.concat(pod.getValue().getInitContainers().stream(),
                    pod.getValue().getContainers().stream()).toList()) {
                List<String> command = c.getCommand() != null && !c.getCommand().isEmpty() ? c.getCommand() : entrypoint;
                if (!command.get(0).equals("java")) {
                    continue;
                }
                jvms++;
                assertEquals(List.of(), JvmSizing.violations(pod.getKey() + "/" + c.getName(), command,
                        c.getResources().getLimits().get("memory"), JvmSizing.writablePaths(pod.getValue(), c)), profile);
                // The writable paths are volumes of the pod's own, bounded.
                for (Volume v : pod.getValue().getVolumes()) {
                    if (v.getEmptyDir() != null && !v.getName().equals("report")) {
                        assertNotNull(v.getEmptyDir().getSizeLimit(), pod.getKey() + " " + v.getName());
                    }
                }
            }
        }
        assertEquals(2, jvms, "the server's and the controller's");
    }

    /**
     * The image runs as a fixed user that is not root, given by number so that the kubelet can check runAsNonRoot; its
     * jars, and the workload image's, are readable by that user and writable by none; and its entrypoint is the command
     * the workers' Job names, so that the controller and its workers run the same JVM settings.
     */
    @Test
    void theImageRunsAsAUserThatIsNotRootWithReadableJarsAndTheWorkersCommand() throws IOException {
        long[] user = imageUser();
        assertEquals(JobFactory.USER, user[0]);
        assertEquals(JobFactory.USER, user[1]);
        assertEquals(JobFactory.WORKER_COMMAND, imageEntrypoint());
        // The workload image keeps Ricochet's user and entrypoint.
        List<String> examples = Files.readAllLines(K8S.resolve("../examples/Dockerfile"));
        assertTrue(examples.stream().map(String::strip).noneMatch(l -> l.startsWith("USER") || l.startsWith("ENTRYPOINT")
                || l.startsWith("CMD")), examples.toString());
        for (Path dockerfile : List.of(K8S.resolve("../Dockerfile"), K8S.resolve("../examples/Dockerfile"))) {
            List<String> copies = Files.readAllLines(dockerfile).stream().map(String::strip)
                    .filter(l -> l.startsWith("COPY ")).toList();
            assertFalse(copies.isEmpty(), dockerfile.toString());
            for (String copy : copies) {
                Matcher chmod = Pattern.compile(" --chmod=([0-7]{3,4}) ").matcher(copy);
                assertTrue(chmod.find(), dockerfile + ": " + copy);
                int mode = Integer.parseInt(chmod.group(1), 8);
                assertEquals(0444, mode & 0666, dockerfile + ": " + copy + " (expected: readable by all, writable by none)");
            }
        }
    }

    /** The root Dockerfile's USER, as {uid, gid}: numbers, not root. */
    private static long[] imageUser() throws IOException {
        List<String[]> users = instructions(K8S.resolve("../Dockerfile")).stream().filter(i -> i[0].equals("USER")).toList();
        assertEquals(1, users.size());
        String[] ids = users.get(0)[1].split(":");
        assertEquals(2, ids.length, "USER UID:GID, by number");
        long[] user = {Long.parseLong(ids[0]), Long.parseLong(ids[1])};
        assertTrue(user[0] > 0 && user[1] > 0, users.get(0)[1]);
        return user;
    }

    /** The root Dockerfile's ENTRYPOINT, in its exec form. */
    private static List<String> imageEntrypoint() throws IOException {
        List<String> lines = Files.readAllLines(K8S.resolve("../Dockerfile")).stream().map(String::strip)
                .filter(l -> l.startsWith("ENTRYPOINT ")).toList();
        assertEquals(1, lines.size());
        List<String> entrypoint = new ArrayList<>();
        new ObjectMapper().readTree(lines.get(0).substring("ENTRYPOINT ".length())).forEach(a -> entrypoint.add(a.asText()));
        return entrypoint;
    }

    /**
     * A finished run's Jobs delete themselves, so the next {@code kubectl apply -k} starts a new run with nothing deleted
     * by hand: the controller's Job with the same TTL as the workers' Job (the controller's --ttl, which the profiles
     * leave at its default).
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyJobIsDeletedAfterItEndsSoThatTheNextRunNeedsNoCleanUp(String profile, @TempDir Path dir) throws IOException {
        List<HasMetadata> objects = build(profile);
        Job job = one(objects, Job.class, CONTROLLER);
        ControllerCommand controller = controller(objects, dir);
        assertEquals(new ControllerCommand.KubernetesOptions().ttlSeconds, controller.kubernetes.ttlSeconds);
        assertEquals(controller.kubernetes.ttlSeconds, job.getSpec().getTtlSecondsAfterFinished());
    }

    /** The controller of a built profile's Job, its args as {@link #controllerArgs} gives them, parsed by the CLI. */
    private static ControllerCommand controller(List<HasMetadata> objects, Path dir) throws IOException {
        List<String> args = controllerArgs(objects, dir);
        ParseResult parsed = LoadGeneratorMain.newCommandLine().parseArgs(args.toArray(String[]::new));
        return (ControllerCommand) parsed.subcommand().commandSpec().userObject();
    }

    /**
     * The controller's args as its container gets them: each $(VAR) expanded from the profile's ConfigMap (or the
     * downward API's fields), and the
     * scenario file's path the one {@link #scenarioFile} writes in {@code dir}, the file the pod would have mounted.
     */
    private static List<String> controllerArgs(List<HasMetadata> objects, Path dir) throws IOException {
        Map<String, String> env = new HashMap<>(one(objects, ConfigMap.class, CONFIG).getData());
        // The downward API's: the label job-name is the one Kubernetes puts on a Job's pods, the Job's name.
        Job job = one(objects, Job.class, CONTROLLER);
        fromPod(job).forEach((name, path) -> env.put(name, path.equals("metadata.labels['job-name']")
                ? job.getMetadata().getName() : "<" + path + ">"));
        String scenario = "--scenario=" + scenarioFile(objects, dir);
        return one(objects, Job.class, CONTROLLER).getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()
                .stream().map(a -> expand(a, env)).map(a -> a.equals("--scenario=" + SCENARIO_FILE) ? scenario : a)
                .toList();
    }

    /** The controller container's variables that the downward API sets: name → field path. */
    private static Map<String, String> fromPod(Job job) {
        Map<String, String> fields = new HashMap<>();
        for (var e : job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
            if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
                fields.put(e.getName(), e.getValueFrom().getFieldRef().getFieldPath());
            }
        }
        return fields;
    }

    /** The echo profiles: the workload profile's scenario needs the example's jar, which this module does not have. */
    static Stream<String> echoProfiles() throws IOException {
        return profiles().filter(p -> !p.equals(WORKLOAD));
    }

    /**
     * The workers' Job that each profile's controller creates, as {@code plan --manifests} prints it from the profile's
     * own args and scenario file: pods the restricted profile admits, whose JVM fits the profile's --worker-memory, deleted after the run.
     * (The workload profile's controller creates the same Job but for its numbers; its scenario needs the example's jar
     * to plan, which examples' tests have.)
     */
    @ParameterizedTest
    @MethodSource("echoProfiles")
    void theWorkersJobEachProfilesControllerWouldCreateMeetsTheRestrictedProfile(String profile, @TempDir Path dir)
            throws IOException {
        List<HasMetadata> objects = build(profile);
        Map<String, String> env = one(objects, ConfigMap.class, CONFIG).getData();
        List<String> args = new ArrayList<>(controllerArgs(objects, dir));
        assertEquals("controller", args.get(0));
        args.set(0, "plan");
        args.add(1, "--manifests");
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        List<HasMetadata> printed = PlanManifestsTest.objects(r.out());
        assertEquals(List.of("Secret", "Job"), printed.stream().map(HasMetadata::getKind).toList());
        Job workers = (Job) printed.get(1);
        PodSpec pod = workers.getSpec().getTemplate().getSpec();
        assertEquals(List.of(), RestrictedProfile.violations("worker", pod, false), profile);
        Container worker = pod.getContainers().get(0);
        assertEquals(new Quantity(env.get("WORKER_MEMORY")), worker.getResources().getLimits().get("memory"));
        assertEquals(worker.getResources().getLimits(), worker.getResources().getRequests());
        assertEquals(List.of(), JvmSizing.violations("worker", worker.getCommand(),
                worker.getResources().getLimits().get("memory"), JvmSizing.writablePaths(pod, worker)), profile);
        assertEquals(List.of("worker", "--controller=" + CONTROLLER + ":7200"), worker.getArgs());
        assertEquals(one(objects, Job.class, CONTROLLER).getSpec().getTtlSecondsAfterFinished(),
                workers.getSpec().getTtlSecondsAfterFinished());
    }

    /** The report directory is an emptyDir, except in report-pvc, where it is the claim that profile makes. */
    @ParameterizedTest
    @MethodSource("profiles")
    void theReportVolumeIsTheProfilesClaimOrAnEmptyDir(String profile) {
        List<HasMetadata> objects = build(profile);
        List<Volume> volumes = one(objects, Job.class, CONTROLLER).getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals("report")).toList();
        assertEquals(1, volumes.size());
        Volume report = volumes.get(0);
        List<PersistentVolumeClaim> claims = all(objects, PersistentVolumeClaim.class);
        if (profile.equals("report-pvc")) {
            assertEquals(1, claims.size());
            assertEquals(claims.get(0).getMetadata().getName(), report.getPersistentVolumeClaim().getClaimName());
            assertNull(report.getEmptyDir());
        } else {
            assertEquals(List.of(), claims);
            assertNull(report.getPersistentVolumeClaim());
            assertNotNull(report.getEmptyDir());
        }
    }

    /** k8s/report-pvc/reader.yaml, applied after a run, mounts that claim where the controller wrote it. */
    @Test
    void theReportReaderMountsTheClaimWithTheRunsImage() throws IOException {
        Pod reader;
        PersistentVolumeClaim claim;
        try (InputStream in = Files.newInputStream(K8S.resolve("report-pvc/reader.yaml"));
                InputStream pvc = Files.newInputStream(K8S.resolve("report-pvc/pvc.yaml"))) {
            reader = assertInstanceOf(Pod.class, Serialization.unmarshal(in));
            claim = assertInstanceOf(PersistentVolumeClaim.class, Serialization.unmarshal(pvc));
        }
        Volume volume = reader.getSpec().getVolumes().get(0);
        assertEquals(claim.getMetadata().getName(), volume.getPersistentVolumeClaim().getClaimName());
        Container container = reader.getSpec().getContainers().get(0);
        assertEquals(volume.getName(), container.getVolumeMounts().get(0).getName());
        assertEquals("/report", container.getVolumeMounts().get(0).getMountPath());
        // Nothing new to pull: the image the run's pods have (base's images:, by default).
        JsonNode image = YAML.readTree(K8S.resolve("base/kustomization.yaml").toFile()).get("images").get(0);
        assertEquals(image.get("newName").asText() + ":" + image.get("newTag").asText(), container.getImage());
    }

    /**
     * k8s/base/load-controller, the part both base and the workload profile are built from, is what a controller needs
     * whatever it loads, and nothing else; every profile has those objects as the part builds them.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyProfileHasTheControllersAccountRoleAndServiceAsThePartBuildsThem(String profile) {
        List<HasMetadata> part = build(CONTROLLER_PART);
        assertEquals(new TreeSet<>(List.of("ServiceAccount/" + CONTROLLER, "Role/" + CONTROLLER,
                "RoleBinding/" + CONTROLLER, "Service/" + CONTROLLER)), new TreeSet<>(names(part)));
        List<HasMetadata> objects = build(profile);
        for (HasMetadata object : part) {
            assertEquals(object, one(objects, object.getClass(), object.getMetadata().getName()), profile);
        }
    }

    /**
     * The workload profile's controller is base's, but for what it loads and what it waits for: the same Job, pod,
     * controller flags (workers, coordination) and scenario volume; no scrape flags (the KV service has no /metrics); a
     * scenario of its own with base's report and metrics; and base's wait, for the KV server's Ready pods instead of the
     * echo server's.
     */
    @Test
    void theWorkloadProfilesControllerIsBasesApartFromWhatItLoadsAndWaitsFor(@TempDir Path dir) throws IOException {
        Job base = one(build("base"), Job.class, CONTROLLER);
        Job workload = one(build(WORKLOAD), Job.class, CONTROLLER);
        PodSpec basePod = base.getSpec().getTemplate().getSpec();
        PodSpec pod = workload.getSpec().getTemplate().getSpec();
        assertEquals(basePod.getInitContainers().get(0).getCommand().get(2).replace(ECHO, KV)
                .replace(ECHO_SERVER.replicasVariable(), KV_SERVER.replicasVariable()),
                pod.getInitContainers().get(0).getCommand().get(2));
        List<String> baseArgs = basePod.getContainers().get(0).getArgs();
        List<String> args = pod.getContainers().get(0).getArgs();
        assertTrue(baseArgs.stream().anyMatch(a -> a.startsWith("--scrape-")), baseArgs.toString());
        assertEquals(baseArgs.stream().filter(a -> !a.startsWith("--scrape-")).toList(), args);
        // What it loads is its scenario's; where the report and the run's metrics go is base's.
        Scenario baseScenario = scenario(build("base"), Files.createDirectory(dir.resolve("base")));
        Scenario scenario = scenario(build(WORKLOAD), Files.createDirectory(dir.resolve(WORKLOAD)));
        assertNotEquals(baseScenario.command(), scenario.command());
        assertEquals(baseScenario.report(), scenario.report());
        assertEquals(baseScenario.json(), scenario.json());
        assertEquals(baseScenario.metricsPort(), scenario.metricsPort());
        assertEquals(baseScenario.metricsHost(), scenario.metricsHost());
        // Everything else is base's: take out the image (each profile's images: sets it), the args and the wait's name
        // and script, compared above, and the two Jobs are equal (as YAML, so that a failure shows the difference).
        assertEquals(Serialization.asYaml(withoutWhatDiffers(base)), Serialization.asYaml(withoutWhatDiffers(workload)));
    }

    /**
     * The massive profile's scenario patch is the whole file (a patch replaces a data key whole): it is base's but for
     * its numbers, so a change to base's scenario that massive should share shows here.
     */
    @Test
    void theMassiveScenarioIsBasesButForItsNumbers(@TempDir Path dir) throws IOException {
        Scenario base = scenario(build("base"), Files.createDirectory(dir.resolve("base")));
        Scenario massive = scenario(build("massive"), Files.createDirectory(dir.resolve("massive")));
        assertNotEquals(base.connections(), massive.connections());
        assertNotEquals(base.connectRate(), massive.connectRate());
        assertNotEquals(base.duration(), massive.duration());
        assertEquals(base, massive.toBuilder().connections(base.connections()).connectRate(base.connectRate())
                .duration(base.duration()).build());
    }

    /**
     * The ConfigMap of variables holds what the controller's flags and its wait use, and nothing more: the scenario
     * has a file of its own, so no variable of the run is left behind unused.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyVariableOfTheConfigMapIsOneTheControllerOrItsWaitUses(String profile) {
        List<HasMetadata> objects = build(profile);
        PodSpec pod = one(objects, Job.class, CONTROLLER).getSpec().getTemplate().getSpec();
        Set<String> used = new TreeSet<>();
        for (String arg : pod.getContainers().get(0).getArgs()) {
            Matcher m = VARIABLE.matcher(arg);
            while (m.find()) {
                used.add(m.group(1));
            }
        }
        Matcher shell = Pattern.compile("\\$([A-Z][A-Z_]*)").matcher(pod.getInitContainers().get(0).getCommand().get(2));
        while (shell.find()) {
            used.add(shell.group(1));
        }
        used.removeAll(fromPod(one(objects, Job.class, CONTROLLER)).keySet());
        assertEquals(used, new TreeSet<>(one(objects, ConfigMap.class, CONFIG).getData().keySet()), profile);
    }

    private static Job withoutWhatDiffers(Job job) {
        Job copy = Serialization.clone(job);
        PodSpec pod = copy.getSpec().getTemplate().getSpec();
        Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream()).forEach(c -> c.setImage(null));
        pod.getInitContainers().get(0).setName(null);
        pod.getInitContainers().get(0).setCommand(null);
        pod.getContainers().get(0).setArgs(null);
        return copy;
    }

    /**
     * Each of the workload's connections puts up to keys=N keys of its own, and a put the store refuses as full is a bad
     * reply: the KV server's --max-keys holds at least a whole run's.
     */
    @Test
    void theKvServersStoreHoldsEveryKeyOfARun(@TempDir Path dir) throws IOException {
        List<HasMetadata> objects = build(WORKLOAD);
        Scenario scenario = scenario(objects, dir);
        Container kv = one(objects, Deployment.class, KV).getSpec().getTemplate().getSpec().getContainers().get(0);
        long maxKeys = Long.parseLong(flags(kv).get("--max-keys"));
        long keys = Long.parseLong(scenario.workload().params().get("keys"));
        assertTrue(maxKeys >= scenario.connections() * keys, maxKeys + " keys for " + scenario.connections()
                + " connections x " + keys);
        assertEquals("0.0.0.0", flags(kv).get("--host"));
    }

    /**
     * examples/Dockerfile builds the workload profile's image as docs/kubernetes.md says: FROM the echo profiles' image
     * (Ricochet's, from the root Dockerfile), with the example's jar in the workloads directory beside
     * load-generator.jar, where the generator searches; the KV server's class path names both jars.
     */
    @Test
    void theWorkloadImageAddsItsJarWhereTheGeneratorAndTheKvServerFindIt() throws IOException {
        JsonNode base = YAML.readTree(K8S.resolve("base/kustomization.yaml").toFile()).get("images").get(0);
        JsonNode own = YAML.readTree(K8S.resolve(WORKLOAD).resolve("kustomization.yaml").toFile()).get("images").get(0);
        // The files name the same image as base's, and images: makes it the workload image, not the plain one.
        assertEquals(base.get("name").asText(), own.get("name").asText());
        assertNotEquals(base.get("newName").asText() + ":" + base.get("newTag").asText(),
                own.get("newName").asText() + ":" + own.get("newTag").asText());
        List<String[]> root = instructions(K8S.resolve("../Dockerfile"));
        List<String[]> examples = instructions(K8S.resolve("../examples/Dockerfile"));
        assertEquals(List.of("FROM", "COPY"), examples.stream().map(i -> i[0]).toList());
        assertEquals(base.get("newName").asText() + ":" + base.get("newTag").asText(), examples.get(0)[1]);
        String generator = root.stream().filter(i -> i[0].equals("COPY") && i[2].endsWith("/load-generator.jar"))
                .findFirst().orElseThrow()[2];
        String[] copy = examples.get(1);
        assertEquals(3, copy.length, String.join(" ", copy));
        Path jar = Path.of(copy[2]);
        assertEquals(Path.of(generator).resolveSibling(io.ricochet.loadgen.run.WorkloadCatalog.DIRECTORY), jar.getParent());
        assertTrue(jar.getFileName().toString().endsWith(".jar"), copy[2]);
        // The jar the examples module builds: target/ARTIFACT-VERSION.jar.
        String pom = Files.readString(K8S.resolve("../examples/pom.xml"));
        Matcher version = Pattern.compile("<parent>.*?<version>([^<]+)</version>.*?</parent>", Pattern.DOTALL).matcher(pom);
        Matcher artifact = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>").matcher(pom);
        assertTrue(version.find() && artifact.find(), "examples/pom.xml");
        assertEquals("target/" + artifact.group(1) + "-" + version.group(1) + ".jar", copy[1]);
        // The KV server runs from that image: the generator's jar (framework, Netty, protobuf, picocli) and the example's.
        Container kv = one(build(WORKLOAD), Deployment.class, KV).getSpec().getTemplate().getSpec().getContainers().get(0);
        List<String> command = kv.getCommand();
        assertEquals(generator + ":" + copy[2], command.get(command.indexOf("-cp") + 1));
        String main = command.get(command.size() - 1);
        assertTrue(Files.isRegularFile(K8S.resolve("../examples/src/main/java/" + main.replace('.', '/') + ".java")), main);
    }

    /**
     * A Dockerfile's instructions, each split on blanks, without its flags (COPY's --chmod): the instruction, then its
     * arguments. Comments and blank lines left out.
     */
    private static List<String[]> instructions(Path dockerfile) throws IOException {
        return Files.readAllLines(dockerfile).stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .map(l -> l.split("\\s+")).map(i -> Stream.concat(Stream.of(i[0]),
                        Arrays.stream(i).skip(1).filter(a -> !a.startsWith("--"))).toArray(String[]::new)).toList();
    }
}
