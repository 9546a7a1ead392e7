package io.ricochet.loadgen.k8s;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.positive;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.ricochet.loadgen.api.Workers;
import io.ricochet.loadgen.distributed.WorkerExecutor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@code LoadTest}'s workers as an Indexed Job on Kubernetes, as {@code controller --executor kubernetes} starts
 * them: one pod per worker, each given its shard of the scenario by this JVM's controller, which the pods reach at
 * {@link #advertise}. The test's JVM must be reachable from the pods: a test pod in the cluster ({@code POD_IP} is
 * advertised by default), or a host the pods can route to.
 *
 * <pre>{@code
 * LoadTest.tcp(service).workload("kv-text", Map.of()).connections(40_000).rate(50_000)
 *         .workers(KubernetesWorkers.of(4).namespace("loadtest").image("registry.example/kv-load:1")
 *                 .workerResources("2", "4Gi"))
 *         .run().assertThresholds();
 * }</pre>
 */
public final class KubernetesWorkers implements Workers {
    private final double[] weights;
    private final String namespace;
    private final String image;
    private final String cpu;
    private final String memory;
    private final int ttlSeconds;
    private final boolean keep;
    private final String bindHost;
    private final String advertise;
    private final int port;
    private final Duration startTimeout;
    private final Supplier<KubernetesClient> clients;
    /** A client its owner handed over and closes, or null to make one per run with {@link #clients}. */
    private final KubernetesClient given;

    private KubernetesWorkers(double[] weights, String namespace, String image, String cpu, String memory,
            int ttlSeconds, boolean keep, String bindHost, String advertise, int port, Duration startTimeout,
            Supplier<KubernetesClient> clients, KubernetesClient given) {
        this.weights = weights;
        this.namespace = namespace;
        this.image = image;
        this.cpu = cpu;
        this.memory = memory;
        this.ttlSeconds = ttlSeconds;
        this.keep = keep;
        this.bindHost = bindHost;
        this.advertise = advertise;
        this.port = port;
        this.startTimeout = startTimeout;
        this.clients = clients;
        this.given = given;
    }

    /**
     * {@code count} worker pods of equal weight, as the controller's defaults have them: the client's namespace, 1 CPU
     * and 2Gi each, the coordination port bound on every address and {@code $POD_IP} (else 127.0.0.1) advertised.
     */
    public static KubernetesWorkers of(int count) {
        String podIp = System.getenv("POD_IP");
        return new KubernetesWorkers(Workers.equalWeights(count), null, KubernetesSettings.DEFAULT_IMAGE, "1", "2Gi",
                600, false, "0.0.0.0", podIp != null ? podIp : "127.0.0.1", 0, Duration.ofSeconds(120), KubernetesExecutor::connect, null);
    }

    /**
     * One worker pod ({@link #pods} sets how many) in {@code namespace}, running {@code image}, created with
     * {@code client}, which stays open after the run: a test's own client, a mock server's.
     */
    public static KubernetesWorkers of(KubernetesClient client, String namespace, String image) {
        return of(1).namespace(namespace).image(image).client(Objects.requireNonNull(client, "client"));
    }

    /** {@code count} pods of equal weight, the other settings kept. */
    public KubernetesWorkers pods(int count) {
        return new KubernetesWorkers(Workers.equalWeights(count), namespace, image, cpu, memory, ttlSeconds, keep,
                bindHost, advertise, port, startTimeout, clients, given);
    }

    /** Creates the Job with {@code client}, which the run leaves open for its owner to close. */
    public KubernetesWorkers client(KubernetesClient client) {
        return new KubernetesWorkers(weights, namespace, image, cpu, memory, ttlSeconds, keep, bindHost, advertise,
                port, startTimeout, clients, Objects.requireNonNull(client, "client"));
    }

    /** The Job's namespace (default: the client's, from the kubeconfig or the pod). */
    public KubernetesWorkers namespace(String ns) {
        return new KubernetesWorkers(weights, Objects.requireNonNull(ns, "namespace"), image, cpu, memory, ttlSeconds,
                keep, bindHost, advertise, port, startTimeout, clients, given);
    }

    /** The worker image: Ricochet's, or one built FROM it with the test's workload jars in /app/workloads. */
    public KubernetesWorkers image(String name) {
        return new KubernetesWorkers(weights, namespace, Objects.requireNonNull(name, "image"), cpu, memory,
                ttlSeconds, keep, bindHost, advertise, port, startTimeout, clients, given);
    }

    /** CPU and memory request and limit of each worker pod ({@code "2"}, {@code "4Gi"}); memory sizes its JVM. */
    public KubernetesWorkers workerResources(String podCpu, String podMemory) {
        return new KubernetesWorkers(weights, namespace, image, Objects.requireNonNull(podCpu, "cpu"),
                Objects.requireNonNull(podMemory, "memory"), ttlSeconds, keep, bindHost, advertise, port, startTimeout,
                clients, given);
    }

    /** The same workers weighted: one weight each, every one above 0. */
    public KubernetesWorkers weights(double... shares) {
        return new KubernetesWorkers(Workers.checkedWeights(shares, weights.length), namespace, image, cpu, memory,
                ttlSeconds, keep, bindHost, advertise, port, startTimeout, clients, given);
    }

    /** Where the coordination port binds, which port (0: ephemeral), and the host the pods are told to reach. */
    public KubernetesWorkers coordination(String bind, int coordinationPort, String advertiseHost) {
        inRange("port", coordinationPort, 0, 65535);
        return new KubernetesWorkers(weights, namespace, image, cpu, memory, ttlSeconds, keep,
                Objects.requireNonNull(bind, "bind"), Objects.requireNonNull(advertiseHost, "advertise"),
                coordinationPort, startTimeout, clients, given);
    }

    /** How long the start barrier waits for every pod to be scheduled, pulled and ready (default: 120 s). */
    public KubernetesWorkers startTimeout(Duration timeout) {
        return new KubernetesWorkers(weights, namespace, image, cpu, memory, ttlSeconds, keep, bindHost, advertise,
                port, positive("startTimeout", timeout), clients, given);
    }

    /** Keeps the Job after the run rather than deleting it; Kubernetes deletes it {@code ttlSeconds} after it ends. */
    public KubernetesWorkers keep(int ttlAfterFinished) {
        inRange("ttlSeconds", ttlAfterFinished, 0, Integer.MAX_VALUE);
        return new KubernetesWorkers(weights, namespace, image, cpu, memory, ttlAfterFinished, true, bindHost,
                advertise, port, startTimeout, clients, given);
    }

    /**
     * How each run gets its client (default: the pod's service account, else the kubeconfig). The run closes the
     * client it was given when it ends, so the supplier makes a new one each time.
     */
    public KubernetesWorkers client(Supplier<KubernetesClient> supplier) {
        return new KubernetesWorkers(weights, namespace, image, cpu, memory, ttlSeconds, keep, bindHost, advertise,
                port, startTimeout, Objects.requireNonNull(supplier, "client"), null);
    }

    @Override
    public int count() {
        return weights.length;
    }

    @Override
    public double[] weights() {
        return weights.clone();
    }

    @Override
    public String executorName() {
        return "kubernetes";
    }

    @Override
    public String bindHost() {
        return bindHost;
    }

    @Override
    public String advertiseHost() {
        return advertise;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Duration startTimeout() {
        return startTimeout;
    }

    /** The Job's executor; its pods log to the cluster, so {@code logDir} is not used. */
    @Override
    public WorkerExecutor executor(Path logDir) {
        String jobName = "ricochet-workers-" + Long.toString(System.nanoTime() & 0xffffff, 36);
        KubernetesSettings settings = new KubernetesSettings(namespace, jobName, image, weights.length, ttlSeconds,
                cpu, memory, "default", keep, System.getenv("POD_NAME"), System.getenv("POD_UID"));
        return given != null ? new KubernetesExecutor(settings, given) : new KubernetesExecutor(settings, clients);
    }
}
