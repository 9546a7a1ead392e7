package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.loadgen.distributed.JobFactory;
import io.ricochet.loadgen.distributed.KubernetesExecutor;
import io.ricochet.loadgen.distributed.KubernetesSettings;
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
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The k8s/ manifests. Every file parses into Fabric8's model, and every profile, as {@code kubectl kustomize} builds it,
 * agrees with itself (selectors, ports, image, the wait for the echo server, the report volume) and with the CLIs that
 * run it. The built checks need kubectl: .ci/run installs Debian's kubernetes-client when there is none, whose
 * kustomize (v2.0.3) builds the same objects as a current one (v5) from these files.
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

    /** Every directory with a kustomization, as a path under k8s/ ("." for k8s/ itself). */
    static Stream<String> profiles() throws IOException {
        try (Stream<Path> files = Files.walk(K8S)) {
            return files.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .map(p -> K8S.relativize(p.getParent()).toString()).map(p -> p.isEmpty() ? "." : p).sorted()
                    .toList().stream();
        }
    }

    @Test
    void theProfilesAreTheOnesTheDocsName() throws IOException {
        assertEquals(List.of(".", "base", "massive", "report-pvc", "small"), profiles().toList());
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
        Set<String> inBase = new HashSet<>(listed(K8S.resolve("base/kustomization.yaml")));
        try (Stream<Path> files = Files.list(K8S.resolve("base/echo-server"));
                Stream<Path> more = Files.list(K8S.resolve("base/load-controller"))) {
            Stream.concat(files, more).forEach(p -> assertTrue(inBase.contains(K8S.resolve("base").relativize(p).toString()),
                    "k8s/base/kustomization.yaml leaves out " + p));
        }
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
    @MethodSource("profiles")
    void everyKustomizationUsesFormsThatKustomizeV2AlsoBuilds(String profile) throws IOException {
        Path dir = K8S.resolve(profile);
        JsonNode k = YAML.readTree(dir.resolve("kustomization.yaml").toFile());
        Set<String> fields = new TreeSet<>();
        k.fieldNames().forEachRemaining(fields::add);
        assertTrue(Set.of("apiVersion", "kind", "resources", "bases", "patchesStrategicMerge", "images").containsAll(fields),
                profile + ": " + fields);
        k.path("resources").forEach(r -> assertTrue(Files.isRegularFile(dir.resolve(r.asText())), profile + ": " + r));
        k.path("bases").forEach(b -> assertTrue(Files.isDirectory(dir.resolve(b.asText())), profile + ": " + b));
        // The image is set in one place.
        assertEquals(profile.equals("base"), k.has("images"), profile);
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
        one(objects, Deployment.class, ECHO);
        one(objects, Service.class, ECHO);
        one(objects, Service.class, READY_PODS);
        one(objects, Service.class, CONTROLLER);
        one(objects, ConfigMap.class, CONFIG);
        Role role = one(objects, Role.class, CONTROLLER);
        Map<String, Set<String>> granted = new HashMap<>();
        for (PolicyRule rule : role.getRules()) {
            for (String resource : rule.getResources()) {
                granted.computeIfAbsent(resource, r -> new HashSet<>()).addAll(rule.getVerbs());
            }
        }
        assertEquals(KubernetesExecutor.PERMISSIONS, granted);
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
        Deployment echo = one(objects, Deployment.class, ECHO);
        Map<String, String> echoLabels = echo.getSpec().getTemplate().getMetadata().getLabels();
        assertTrue(echoLabels.entrySet().containsAll(echo.getSpec().getSelector().getMatchLabels().entrySet()),
                echo.getSpec().getSelector().toString());
        Map<String, PodTemplateSpec> templates = Map.of(ECHO, echo.getSpec().getTemplate(),
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
        assertEquals(Map.of(ECHO, ECHO, READY_PODS, ECHO, CONTROLLER, CONTROLLER), selects);
        assertEquals("None", one(objects, Service.class, READY_PODS).getSpec().getClusterIP());
    }

    private static ContainerPort port(Container container, String name) {
        List<ContainerPort> named = container.getPorts().stream().filter(p -> name.equals(p.getName())).toList();
        assertEquals(1, named.size(), container.getName() + " has no port " + name);
        return named.get(0);
    }

    private static int servicePort(Service service, String name) {
        return service.getSpec().getPorts().stream().filter(p -> p.getName().equals(name)).findFirst().orElseThrow().getPort();
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void theEchoServersFlagsAreItsContainerPortsProbesAndScrapeAnnotation(String profile) {
        Deployment echo = one(build(profile), Deployment.class, ECHO);
        Container container = echo.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> flags = container.getArgs().stream().map(a -> a.split("=", 2))
                .collect(Collectors.toMap(a -> a[0], a -> a.length > 1 ? a[1] : ""));
        for (String name : List.of("tcp", "udp", "rpc", "metrics")) {
            assertEquals(Integer.parseInt(flags.get("--" + name + "-port")), port(container, name).getContainerPort(), name);
        }
        assertEquals("metrics", container.getReadinessProbe().getHttpGet().getPort().getStrVal());
        assertEquals("/health", container.getReadinessProbe().getHttpGet().getPath());
        assertEquals(flags.get("--metrics-port"), echo.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/port"));
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void theControllersArgsParseWithItsProfilesParametersAndAgreeWithItsServicesAndPorts(String profile) {
        List<HasMetadata> objects = build(profile);
        Job job = one(objects, Job.class, CONTROLLER);
        Container container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        Service coordination = one(objects, Service.class, CONTROLLER);
        Service echoService = one(objects, Service.class, ECHO);
        Map<String, String> env = one(objects, ConfigMap.class, CONFIG).getData();
        assertEquals(CONFIG, container.getEnvFrom().get(0).getConfigMapRef().getName());
        List<String> args = container.getArgs().stream().map(a -> expand(a, env)).toList();
        ParseResult parsed = LoadGeneratorMain.newCommandLine().parseArgs(args.toArray(String[]::new));
        ControllerCommand controller = (ControllerCommand) parsed.subcommand().commandSpec().userObject();
        assertEquals("kubernetes", controller.executor);
        assertEquals(Integer.parseInt(env.get("WORKERS")), controller.workers);
        // No --image: the workers run the controller pod's own image, which kustomize's images: sets.
        assertNull(controller.kubernetes.image);
        assertEquals(servicePort(coordination, "coordination"), controller.port);
        assertEquals(controller.port, port(container, "coordination").getContainerPort());
        assertEquals(coordination.getMetadata().getName(), controller.advertise);
        ParseResult scenario = LoadGeneratorMain.newCommandLine().parseArgs(controller.scenario.toArray(String[]::new));
        ScenarioCommand command = (ScenarioCommand) scenario.subcommand().commandSpec().userObject();
        CommonOptions common = command.common();
        assertEquals(echoService.getMetadata().getName(), common.target.first().getHostString());
        assertEquals(servicePort(echoService, "tcp"), common.target.first().getPort());
        // Every echo-server replica is scraped at its own IP: the pods the Deployment selects, at its metrics port.
        Deployment echo = one(objects, Deployment.class, ECHO);
        assertEquals(echo.getSpec().getSelector().getMatchLabels(), controller.kubernetes.scrapeSelector);
        assertEquals(port(echo.getSpec().getTemplate().getSpec().getContainers().get(0), "metrics").getContainerPort(),
                controller.kubernetes.scrapePort);
        assertEquals(echo.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/path"),
                controller.kubernetes.scrapePath);
        assertEquals(List.of(), common.scrape);
        assertEquals(common.metricsPort, port(container, "metrics").getContainerPort());
        assertEquals(Integer.toString(common.metricsPort),
                job.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/port"));
        // The summary goes to the log; the report files to the volume named report.
        assertTrue(common.json);
        assertEquals(Path.of(container.getVolumeMounts().stream().filter(m -> m.getName().equals("report"))
                .findFirst().orElseThrow().getMountPath()), common.report);
        // The shard plan the controller would hand out splits every connection.
        List<List<String>> shards = ShardPlanner.plan(scenario.subcommand(), equal(controller.workers),
                common.target.toString());
        long connections = shards.stream().flatMap(List::stream).filter(a -> a.startsWith("--connections="))
                .mapToLong(a -> Long.parseLong(a.substring("--connections=".length()))).sum();
        assertEquals(Long.parseLong(env.get("CONNECTIONS")), connections);
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

    /** The files name the image without a tag; only base's images: gives it one, for every container. */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyContainerRunsTheImageThatKustomizeImagesSets(String profile) throws IOException {
        JsonNode images = YAML.readTree(K8S.resolve("base/kustomization.yaml").toFile()).get("images");
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
        for (String file : List.of("base/echo-server/deployment.yaml", "base/load-controller/job.yaml")) {
            String raw = Files.readString(K8S.resolve(file), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("image: (\\S+)").matcher(raw);
            while (m.find()) {
                assertEquals(image.get("name").asText(), m.group(1), file);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void theControllerWaitsForAsManyReadyEchoServerPodsAsTheDeploymentHas(String profile) {
        List<HasMetadata> objects = build(profile);
        Deployment echo = one(objects, Deployment.class, ECHO);
        PodTemplateSpec template = one(objects, Job.class, CONTROLLER).getSpec().getTemplate();
        Map<String, String> env = one(objects, ConfigMap.class, CONFIG).getData();
        assertEquals(echo.getSpec().getReplicas(), Integer.valueOf(env.get("ECHO_SERVER_REPLICAS")));
        assertTrue(env.get("SERVER_READY_TIMEOUT").matches("\\d+[smh]"), env.get("SERVER_READY_TIMEOUT"));
        assertEquals(1, template.getSpec().getInitContainers().size());
        Container wait = template.getSpec().getInitContainers().get(0);
        assertEquals(CONFIG, wait.getEnvFrom().get(0).getConfigMapRef().getName());
        assertTrue(wait.getCommand().get(2).contains("getent ahosts " + READY_PODS + " "), wait.getCommand().toString());
        assertEquals(echo.getSpec().getSelector().getMatchLabels(), one(objects, Service.class, READY_PODS).getSpec().getSelector());
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
        "10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 | 4 | 0 | echo-server: all 4 replicas Ready",
        "10.0.0.1                            | 1 | 0 | echo-server: all 1 replicas Ready",
        "10.0.0.1 10.0.0.2 10.0.0.3          | 4 | 1 | echo-server: not all 4 replicas Ready after 1s",
        "''                                  | 1 | 1 | echo-server: not all 1 replicas Ready after 1s"})
    void theWaitEndsOnceEveryReplicaIsReadyAndFailsAfterItsBound(String addresses, int replicas, int exit, String says,
            @TempDir Path bin) throws Exception {
        Optional<Path> bash = onPath("bash");
        assumeTrue(bash.isPresent(), "no bash to run the init container's script in");
        Container wait = one(build("."), Job.class, CONTROLLER).getSpec().getTemplate().getSpec().getInitContainers().get(0);
        assertEquals(List.of("bash", "-c"), wait.getCommand().subList(0, 2));
        Path getent = bin.resolve("getent");
        Files.writeString(getent, "#!/bin/sh\n[ \"$1 $2\" = \"ahosts " + READY_PODS + "\" ] || exit 2\n"
                + "[ -n \"$ADDRESSES\" ] || exit 2\n"
                + "for a in $ADDRESSES; do for t in STREAM DGRAM RAW; do echo \"$a  $t " + READY_PODS + "\"; done; done\n");
        assertTrue(getent.toFile().setExecutable(true));
        Path output = bin.resolve("output");
        ProcessBuilder builder = new ProcessBuilder(bash.get().toString(), "-c", wait.getCommand().get(2))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        builder.environment().put("ADDRESSES", addresses);
        builder.environment().put("ECHO_SERVER_REPLICAS", Integer.toString(replicas));
        builder.environment().put("SERVER_READY_TIMEOUT", "1s");
        Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the wait outlived its bound");
        String said = Files.readString(output);
        assertEquals(exit, process.exitValue(), said);
        assertTrue(said.startsWith(says), said);
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
}
