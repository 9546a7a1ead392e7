package io.ricochet.loadgen.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
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
    static final int MAX_SUMMARY_CHARS = 900 * 1024;

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

            public String label() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /**
     * Writes {@code outcome} for the run of Job {@code job} in {@code namespace}, whose controller pod is {@code run}:
     * the annotation, the ConfigMap and the Event. Returns the ConfigMap's name.
     *
     * @throws io.fabric8.kubernetes.client.KubernetesClientException when the API refuses one of them
     */
    public static String publish(KubernetesClient client, String namespace, String job, String run, Outcome outcome) {
        String name = configMapName(run);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/name", "ricochet");
        labels.put("app.kubernetes.io/component", "verdict");
        labels.put(JOB, job);
        labels.put(VERDICT, outcome.kind().label());
        String summary = outcome.summaryJson().length() <= MAX_SUMMARY_CHARS ? outcome.summaryJson()
                : "{\"note\": \"the summary was over 900 KiB: the report's summary.json has it whole\"}";
        ConfigMap verdict = new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withLabels(labels).endMetadata()
                .addToData("verdict", outcome.kind().label())
                .addToData("message", outcome.message())
                .addToData("summary.json", summary)
                .build();
        client.configMaps().inNamespace(namespace).resource(verdict).create();
        // A merge patch of two annotations: the controller may patch its Job, not replace it.
        String patch = "{\"metadata\":{\"annotations\":{\"" + VERDICT + "\":\"" + outcome.kind().label() + "\",\""
                + CONFIG_MAP + "\":\"" + name + "\"}}}";
        Job patched = client.batch().v1().jobs().inNamespace(namespace).withName(job)
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        String now = Instant.now().toString();
        Event event = new EventBuilder().withNewMetadata().withGenerateName(job + "-verdict-")
                .withNamespace(namespace).endMetadata()
                .withNewInvolvedObject().withApiVersion("batch/v1").withKind("Job").withName(job)
                .withNamespace(namespace).withUid(patched == null ? null : patched.getMetadata().getUid())
                .endInvolvedObject()
                .withType(outcome.kind() == Outcome.Kind.PASSED ? "Normal" : "Warning")
                .withReason("Run" + outcome.kind().label().substring(0, 1).toUpperCase(Locale.ROOT)
                        + outcome.kind().label().substring(1))
                .withMessage(outcome.message())
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent("ricochet-controller").endSource()
                .build();
        client.v1().events().inNamespace(namespace).resource(event).create();
        return name;
    }

    /** {@code RUN-verdict}, the run's name cut so that the whole is within the 253 characters a name may have. */
    static String configMapName(String run) {
        return (run.length() <= 245 ? run : run.substring(0, 245)) + "-verdict";
    }
}
