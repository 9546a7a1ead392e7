package io.ricochet.loadgen.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The verdict on the Fabric8 mock API server, in CRUD mode. */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class RunVerdictTest {
    private static final String NS = "loadtest";
    private static final String JOB = "ricochet-load-controller";
    KubernetesClient client;

    private void controllerJob() {
        client.batch().v1().jobs().inNamespace(NS).resource(new JobBuilder().withNewMetadata().withName(JOB)
                .addToAnnotations("kept", "yes").endMetadata().withNewSpec().withNewTemplate().withNewSpec()
                .addNewContainer().withName("controller").withImage("ricochet/ricochet").endContainer()
                .withRestartPolicy("Never").endSpec().endTemplate().endSpec().build()).create();
    }

    @Test
    void anAbortedRunIsAnnotatedKeptInAConfigMapAndAnEventWarns() {
        controllerJob();
        String summary = "{\"merged\":{\"ok\":10},\"thresholds\":[{\"expression\":\"p99[5s]<1ms;abort\"}]}";
        String name = RunVerdict.publish(client, NS, JOB, JOB + "-x7k2p", new RunVerdict.Outcome(
                RunVerdict.Outcome.Kind.ABORTED, "aborted: threshold p99[5s]<1ms;abort broken at 6.0 s", summary));
        assertEquals(JOB + "-x7k2p-verdict", name);
        Job job = client.batch().v1().jobs().inNamespace(NS).withName(JOB).get();
        assertEquals("aborted", job.getMetadata().getAnnotations().get("ricochet.io/verdict"));
        assertEquals(name, job.getMetadata().getAnnotations().get("ricochet.io/verdict-configmap"));
        assertEquals("yes", job.getMetadata().getAnnotations().get("kept"), "a merge patch keeps what was there");
        List<ConfigMap> maps = client.configMaps().inNamespace(NS).withLabel("ricochet.io/job", JOB).list().getItems();
        assertEquals(1, maps.size());
        assertEquals("aborted", maps.get(0).getMetadata().getLabels().get("ricochet.io/verdict"));
        assertEquals(summary, maps.get(0).getData().get("summary.json"));
        assertEquals("aborted: threshold p99[5s]<1ms;abort broken at 6.0 s", maps.get(0).getData().get("message"));
        List<Event> events = client.v1().events().inNamespace(NS).list().getItems();
        assertEquals(1, events.size());
        Event e = events.get(0);
        assertEquals("Warning", e.getType());
        assertEquals("RunAborted", e.getReason());
        assertEquals("Job", e.getInvolvedObject().getKind());
        assertEquals(JOB, e.getInvolvedObject().getName());
        assertEquals(job.getMetadata().getUid(), e.getInvolvedObject().getUid());
    }

    @Test
    void aMissingJobIsTheApisErrorButTheConfigMapAndEventAreStillWritten() {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> RunVerdict.publish(client,
                NS, "no-such-job", "run-1", new RunVerdict.Outcome(RunVerdict.Outcome.Kind.PASSED, "passed", "{}")));
        assertTrue(e.getMessage().startsWith("job/no-such-job: "), e.getMessage());
        assertEquals("passed", client.configMaps().inNamespace(NS).withName("run-1-verdict").get().getData()
                .get("verdict"));
        assertEquals(1, client.v1().events().inNamespace(NS).list().getItems().size());
    }

    @Test
    void aLongRunNameStillMakesAValidConfigMapName() {
        String name = RunVerdict.configMapName("r".repeat(300));
        assertTrue(name.length() <= 253 && name.endsWith("-verdict"), name);
    }
}
