package io.ricochet.loadgen.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A run's verdict, written where Kubernetes users look, by the controller running in its Job once the run has ended:
 * <ul>
 *   <li>an annotation on the controller's own Job, {@code ricochet.io/verdict: passed|failed|aborted}, with the name of
 *   the ConfigMap under {@code ricochet.io/verdict-configmap};</li>
 *   <li>a ConfigMap named after the run (the controller's pod), holding {@code verdict}, the one-line {@code message}
 *   and {@code summary.json} (the summary with every threshold's verdict), labelled {@code ricochet.io/job=JOB} and
 *   {@code ricochet.io/verdict=…} for {@code kubectl get configmap -l ricochet.io/job=JOB};</li>
 *   <li>an Event on the Job with the one-line verdict ({@code Normal} when passed, else {@code Warning}), which
 *   {@code kubectl describe job JOB} shows.</li>
 * </ul>
 * Everything it calls is in {@link #PERMISSIONS}, which the Role in k8s/ grants with the executor's, and no more.
 *
 * <pre>{@code
 * RunVerdict.publish(client, "loadtest", "ricochet-load-controller", "ricochet-load-controller-x7k2p",
 *         new RunVerdict.Outcome(RunVerdict.Outcome.Kind.PASSED, "passed: 120000 requests, 0 errors", summaryJson));
 * }</pre>
 */
public final class RunVerdict {
    /** resource → verbs the verdict uses, beside {@link KubernetesExecutor#PERMISSIONS}. */
    public static final Map<String, Set<String>> PERMISSIONS = Map.of(
            "jobs", Set.of("patch"),
            "configmaps", Set.of("create"),
            "events", Set.of("create"));
    static final String VERDICT = "ricochet.io/verdict";
    static final String CONFIG_MAP = "ricochet.io/verdict-configmap";
    static final String JOB = "ricochet.io/job";
    /** Room for the summary in a ConfigMap, whose whole is at most 1 MiB. */
    static final int MAX_SUMMARY_BYTES = 900 * 1024;

    private RunVerdict() {
    }

    /**
     * How a run ended: {@code kind}, a one-line {@code message} (what the progress output's last line says) and the
     * summary as JSON with the thresholds' verdicts.
     */
    public record Outcome(Kind kind, String message, String summaryJson) {
        /** The three verdicts the annotation takes. */
        public enum Kind {
            PASSED, FAILED, ABORTED;

            /** {@code passed}, {@code failed} or {@code aborted}: the annotation's and the label's value. */
            public String label() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /**
     * Writes {@code outcome} for the run of Job {@code job} in {@code namespace}, whose controller pod is {@code run}:
     * the ConfigMap, the annotation and the Event, each whatever became of the others. Returns the ConfigMap's name.
     *
     * @throws KubernetesClientException when the API refused any of them, naming each refusal, after trying all three
     */
    public static String publish(KubernetesClient client, String namespace, String job, String run, Outcome outcome) {
        String name = configMapName(run);
        StringBuilder refused = new StringBuilder();
        String uid = null;
        try {
            client.configMaps().inNamespace(namespace).resource(configMap(namespace, job, name, outcome)).create();
        } catch (KubernetesClientException e) {
            refused.append("configmap/").append(name).append(": ").append(e.getMessage()).append("; ");
        }
        try {
            // A merge patch of two annotations: the controller may patch its Job, not replace it.
            String patch = "{\"metadata\":{\"annotations\":{\"" + VERDICT + "\":\"" + outcome.kind().label()
                    + "\",\"" + CONFIG_MAP + "\":\"" + name + "\"}}}";
            Job patched = client.batch().v1().jobs().inNamespace(namespace).withName(job)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            uid = patched == null ? null : patched.getMetadata().getUid();
        } catch (KubernetesClientException e) {
            refused.append("job/").append(job).append(": ").append(e.getMessage()).append("; ");
        }
        try {
            client.v1().events().inNamespace(namespace).resource(event(namespace, job, uid, outcome)).create();
        } catch (KubernetesClientException e) {
            refused.append("event: ").append(e.getMessage()).append("; ");
        }
        if (refused.length() > 0) {
            throw new KubernetesClientException(refused.substring(0, refused.length() - 2));
        }
        return name;
    }

    private static ConfigMap configMap(String namespace, String job, String name, Outcome outcome) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/name", "ricochet");
        labels.put("app.kubernetes.io/component", "verdict");
        labels.put(JOB, job);
        labels.put(VERDICT, outcome.kind().label());
        // A ConfigMap holds at most 1 MiB, counted in bytes.
        String summary = outcome.summaryJson().getBytes(StandardCharsets.UTF_8).length <= MAX_SUMMARY_BYTES
                ? outcome.summaryJson()
                : "{\"note\": \"the summary was over 900 KiB: the report's summary.json has it whole\"}";
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withLabels(labels).endMetadata()
                .addToData("verdict", outcome.kind().label())
                .addToData("message", outcome.message())
                .addToData("summary.json", summary)
                .build();
    }

    private static Event event(String namespace, String job, String uid, Outcome outcome) {
        String now = Instant.now().toString();
        String label = outcome.kind().label();
        return new EventBuilder().withNewMetadata().withGenerateName(job + "-verdict-")
                .withNamespace(namespace).endMetadata()
                .withNewInvolvedObject().withApiVersion("batch/v1").withKind("Job").withName(job)
                .withNamespace(namespace).withUid(uid).endInvolvedObject()
                .withType(outcome.kind() == Outcome.Kind.PASSED ? "Normal" : "Warning")
                .withReason("Run" + label.substring(0, 1).toUpperCase(Locale.ROOT) + label.substring(1))
                .withMessage(outcome.message())
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent("ricochet-controller").endSource()
                .build();
    }

    /** {@code RUN-verdict}, the run's name cut so that the whole is within the 253 characters a name may have. */
    static String configMapName(String run) {
        return (run.length() <= 245 ? run : run.substring(0, 245)) + "-verdict";
    }
}
