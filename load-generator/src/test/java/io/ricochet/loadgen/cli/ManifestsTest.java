package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.loadgen.distributed.KubernetesExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The k8s/ manifests: they parse, agree with each other, and their args parse with the load generator's CLI. */
class ManifestsTest {
    private static final Path K8S = Path.of("..", "k8s");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern VARIABLE = Pattern.compile("\\$\\((\\w+)\\)");

    private static <T> T load(String file, Class<T> type) throws IOException {
        try (InputStream in = Files.newInputStream(K8S.resolve(file))) {
            Object parsed = Serialization.unmarshal(in);
            return assertInstanceOf(type, parsed, file);
        }
    }

    @Test
    void everyManifestParsesIntoAFabric8ModelAndEveryKustomizationListsItsFiles() throws IOException {
        List<Path> yamls;
        try (Stream<Path> files = Files.walk(K8S)) {
            yamls = files.filter(p -> p.toString().endsWith(".yaml")).toList();
        }
        assertTrue(yamls.size() >= 11, yamls.toString());
        for (Path yaml : yamls) {
            if (yaml.getFileName().toString().equals("kustomization.yaml")) {
                JsonNode k = YAML.readTree(yaml.toFile());
                List<String> listed = new ArrayList<>();
                k.path("resources").forEach(r -> listed.add(r.asText()));
                k.path("patches").forEach(p -> listed.add(p.get("path").asText()));
                for (String entry : listed) {
                    assertTrue(Files.exists(yaml.getParent().resolve(entry)), yaml + " lists " + entry);
                }
                continue;
            }
            try (InputStream in = Files.newInputStream(yaml)) {
                assertInstanceOf(HasMetadata.class, Serialization.unmarshal(in), yaml.toString());
            }
        }
        JsonNode base = YAML.readTree(K8S.resolve("kustomization.yaml").toFile());
        Set<String> listed = new HashSet<>();
        base.path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(K8S.resolve("echo-server"));
                Stream<Path> more = Files.list(K8S.resolve("load-controller"))) {
            Stream.concat(files, more).forEach(p -> assertTrue(listed.contains(K8S.relativize(p).toString()),
                    "kustomization.yaml leaves out " + p));
        }
    }

    @Test
    void selectorsMatchTheLabelsOfWhatTheySelect() throws IOException {
        Deployment echo = load("echo-server/deployment.yaml", Deployment.class);
        assertEquals(echo.getSpec().getSelector().getMatchLabels(),
                subset(echo.getSpec().getTemplate().getMetadata().getLabels(), echo.getSpec().getSelector().getMatchLabels()));
        Service echoService = load("echo-server/service.yaml", Service.class);
        assertEquals(echoService.getSpec().getSelector(),
                subset(echo.getSpec().getTemplate().getMetadata().getLabels(), echoService.getSpec().getSelector()));
        Job controller = load("load-controller/job.yaml", Job.class);
        Service coordination = load("load-controller/service.yaml", Service.class);
        assertEquals(coordination.getSpec().getSelector(),
                subset(controller.getSpec().getTemplate().getMetadata().getLabels(), coordination.getSpec().getSelector()));
        // Named target ports exist on the selected containers.
        Set<String> echoPorts = new HashSet<>();
        echo.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().forEach(p -> echoPorts.add(p.getName()));
        echoService.getSpec().getPorts().forEach(p -> assertTrue(echoPorts.contains(p.getTargetPort().getStrVal()), p.toString()));
        assertEquals("coordination", controller.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getName());
        assertEquals("coordination", coordination.getSpec().getPorts().get(0).getTargetPort().getStrVal());
    }

    private static Map<String, String> subset(Map<String, String> labels, Map<String, String> selector) {
        Map<String, String> picked = new HashMap<>();
        selector.keySet().forEach(k -> picked.put(k, labels.get(k)));
        return picked;
    }

    @Test
    void theControllerJobsArgsParseWithEveryProfilesParameters() throws IOException {
        Job job = load("load-controller/job.yaml", Job.class);
        Container container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        Service coordination = load("load-controller/service.yaml", Service.class);
        Service echoService = load("echo-server/service.yaml", Service.class);
        for (String config : List.of("load-controller/configmap.yaml", "massive/config.yaml")) {
            Map<String, String> env = load(config, ConfigMap.class).getData();
            List<String> args = container.getArgs().stream().map(a -> expand(a, env)).toList();
            CommandLine cli = LoadGeneratorMain.newCommandLine();
            ParseResult parsed = cli.parseArgs(args.toArray(String[]::new));
            ControllerCommand controller = (ControllerCommand) parsed.subcommand().commandSpec().userObject();
            assertEquals("kubernetes", controller.executor);
            assertEquals(Integer.parseInt(env.get("WORKERS")), controller.workers);
            assertEquals(coordination.getSpec().getPorts().get(0).getPort(), controller.port);
            assertEquals(coordination.getMetadata().getName(), controller.advertise);
            ParseResult scenario = LoadGeneratorMain.newCommandLine().parseArgs(controller.scenario.toArray(String[]::new));
            ScenarioCommand command = (ScenarioCommand) scenario.subcommand().commandSpec().userObject();
            assertEquals(echoService.getMetadata().getName(), command.common().target.getHostString());
            assertEquals(port(echoService, "tcp"), command.common().target.getPort());
            assertEquals("http://echo-server:" + port(echoService, "metrics") + "/metrics", command.common().scrape.toString());
            // The shard plan the controller would hand out splits every connection.
            List<List<String>> shards = ShardPlanner.plan(scenario.subcommand(), equal(controller.workers),
                    command.common().target.getHostString() + ":" + command.common().target.getPort());
            long connections = shards.stream().flatMap(List::stream).filter(a -> a.startsWith("--connections="))
                    .mapToLong(a -> Long.parseLong(a.substring("--connections=".length()))).sum();
            assertEquals(Long.parseLong(env.get("CONNECTIONS")), connections);
        }
    }

    private static int port(Service service, String name) {
        return service.getSpec().getPorts().stream().filter(p -> p.getName().equals(name)).findFirst().orElseThrow().getPort();
    }

    private static double[] equal(int n) {
        double[] w = new double[n];
        java.util.Arrays.fill(w, 1);
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

    @Test
    void theRoleGrantsExactlyWhatTheControllerCalls() throws IOException {
        Role role = load("load-controller/role.yaml", Role.class);
        Map<String, Set<String>> granted = new HashMap<>();
        for (PolicyRule rule : role.getRules()) {
            for (String resource : rule.getResources()) {
                granted.computeIfAbsent(resource, r -> new HashSet<>()).addAll(rule.getVerbs());
            }
        }
        assertEquals(KubernetesExecutor.PERMISSIONS, granted);
        RoleBinding binding = load("load-controller/rolebinding.yaml", RoleBinding.class);
        ServiceAccount account = load("load-controller/serviceaccount.yaml", ServiceAccount.class);
        assertEquals(role.getMetadata().getName(), binding.getRoleRef().getName());
        assertEquals(account.getMetadata().getName(), binding.getSubjects().get(0).getName());
        assertEquals(account.getMetadata().getName(),
                load("load-controller/job.yaml", Job.class).getSpec().getTemplate().getSpec().getServiceAccountName());
    }
}
