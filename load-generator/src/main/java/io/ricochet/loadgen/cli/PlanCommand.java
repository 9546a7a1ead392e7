package io.ricochet.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.k8s.JobFactory;
import io.ricochet.loadgen.k8s.KubernetesSettings;
import io.ricochet.loadgen.plan.CapacityPlan;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The controller's capacity plan alone: what the run would need, and whether it fits, with nothing started. */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the capacity plan the controller makes before every run, and starts nothing: ports per "
                + "source address, open files per process against the real limit, generator, server and kernel "
                + "memory from the measured per-connection costs, connect time at --connect-rate, and on Kubernetes "
                + "pods and nodes. Takes the controller's options and scenario, e.g. plan --workers 6 massive "
                + "--connections 100k --target 127.0.0.1:7000 --source-addresses 127.0.0.2-127.0.0.13 --connect-rate "
                + "5000 --warmup 60s --duration 30s. Exit 0 when the run fits, 1 when it is refused (the last line "
                + "names the limit).")
final class PlanCommand extends ControllerCommand {
    @Option(names = "--manifests", description = "With --executor kubernetes: print, when the run fits, the Secret and "
            + "the workers' Job the controller would create, as YAML (kubectl create --dry-run=client -o yaml's form), "
            + "the plan above them and the scenario each worker would be sent below them, as comments. The Secret's "
            + "value is a placeholder: no secret is made.")
    boolean manifests;

    @Override
    Integer planned(CapacityPlan capacity, boolean onKubernetes, Scenario s, double[] shares) {
        if (manifests && !onKubernetes) {
            throw usage("manifests: with --executor " + executor + " (expected: with --executor kubernetes, whose "
                    + "Secret and Job it prints)");
        }
        PrintWriter out = spec.commandLine().getOut();
        String verdict = capacity.fits() ? "fits" : "refused: " + capacity.refusal();
        if (!manifests || !capacity.fits()) {
            // A refused run creates nothing, so there is nothing to show but why.
            capacity.lines().forEach(out::println);
            out.println(verdict);
            out.flush();
            return capacity.fits() ? ExitCodes.OK : ExitCodes.FAILURE;
        }
        printManifests(capacity, verdict, out);
        warnOfLocalJars(s);
        printShards(s, shares, out);
        return ExitCodes.OK;
    }

    /**
     * What each worker would be sent in its Assignment, as comments after the objects (it is not a Kubernetes object):
     * the first worker's scenario whole, then a row per worker of the keys whose values differ between workers.
     */
    private static void printShards(Scenario s, double[] shares, PrintWriter out) {
        List<Map<String, String>> shards = new ArrayList<>();
        for (int i = 0; i < shares.length; i++) {
            shards.add(flat(ScenarioFiles.tree(s.shard(i, shares)), ""));
        }
        out.println("# The scenario each worker is sent in its Assignment (ricochet_scenario.proto), not an object of the");
        out.println("# API. Worker 0's, whole:");
        ScenarioFiles.yaml(s.shard(0, shares)).lines().forEach(line -> out.println("#   " + line));
        Set<String> differing = new LinkedHashSet<>();
        shards.get(0).keySet().forEach(key -> {
            if (shards.stream().map(m -> m.get(key)).distinct().count() > 1) {
                differing.add(key);
            }
        });
        shards.forEach(m -> m.keySet().stream().filter(k -> !shards.get(0).containsKey(k)).forEach(differing::add));
        out.println("# Each worker's own (the keys whose values differ between workers):");
        out.println("#   " + String.join("  ", prepend("worker", differing)));
        for (int i = 0; i < shards.size(); i++) {
            Map<String, String> shard = shards.get(i);
            List<String> row = new ArrayList<>(List.of(Integer.toString(i)));
            differing.forEach(k -> row.add(shard.getOrDefault(k, "-")));
            out.println("#   " + String.join("  ", row));
        }
        out.flush();
    }

    /** A tree's values by dotted key, lists joined with commas. */
    private static Map<String, String> flat(JsonNode node, String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isObject()) {
                out.putAll(flat(e.getValue(), prefix + e.getKey() + "."));
            } else if (e.getValue().isArray()) {
                List<String> items = new ArrayList<>();
                e.getValue().forEach(v -> items.add(v.asText()));
                out.put(prefix + e.getKey(), String.join(",", items));
            } else {
                out.put(prefix + e.getKey(), e.getValue().asText());
            }
        });
        return out;
    }

    private static List<String> prepend(String first, Set<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    /**
     * A {@code --workload-jar} is a file on this machine, and without {@code --image} the workers run Ricochet's own
     * image, which holds no jar of the user's: said on stderr, so the Job is not applied as if it would run.
     */
    private void warnOfLocalJars(Scenario s) {
        PrintWriter err = spec.commandLine().getErr();
        localJarWarnings(s.workload().jars(), kubernetes.image).forEach(err::println);
        err.flush();
    }

    /** The warnings for {@code jars} when the workers run {@code image} (null: the default image). */
    static List<String> localJarWarnings(List<java.nio.file.Path> jars, String image) {
        if (image != null) {
            return List.of();
        }
        return jars.stream().map(jar -> "warning: --workload-jar " + jar + " is a file here, not in "
                + KubernetesSettings.DEFAULT_IMAGE + ", which the workers run without --image: build an image FROM it "
                + "with the jar in /app/workloads/, which every worker searches, and give it with --image").toList();
    }

    /** The objects of {@link JobFactory#preview}, each a YAML document, after what they are as comments. */
    private void printManifests(CapacityPlan capacity, String verdict, PrintWriter out) {
        KubernetesSettings settings = kubernetesSettings();
        String image = settings.image() != null ? settings.image() : KubernetesSettings.DEFAULT_IMAGE;
        List<HasMetadata> objects = JobFactory.preview(settings, image,
                InetSocketAddress.createUnresolved(advertised(true), port));
        out.println("# What the controller would create through the Kubernetes API for this run, in that order, as");
        out.println("# `kubectl create --dry-run=client -o yaml` prints objects. Nothing was created.");
        capacity.lines().forEach(line -> out.println("# plan: " + line));
        out.println("# plan: " + verdict);
        out.println("# The Secret's value is a placeholder: the controller makes a new secret, 256 random bits, for each");
        out.println("# run, and no secret was made here.");
        if (kubernetes.jobName == null) {
            out.println("# No --job-name: each run names its Job ricochet-workers-<random>, as this one is.");
        }
        if (kubernetes.image == null) {
            out.println("# No --image: in a pod that POD_NAME names, the workers run that pod's first container's image;");
            out.println("# elsewhere " + KubernetesSettings.DEFAULT_IMAGE + ", shown here.");
        }
        if (advertise == null && System.getenv("POD_IP") == null) {
            out.println("# No --advertise, and no POD_IP: the workers are told 127.0.0.1, their own pod; give --advertise");
            out.println("# (the controller's Service, ricochet-load-controller in k8s/).");
        }
        if (port == 0) {
            out.println("# --port 0: the workers are given the port the controller binds when it starts; 0 is shown.");
        }
        objects.forEach(o -> out.print(Serialization.asYaml(o)));
        out.flush();
    }
}
