package io.ricochet.loadgen.cli;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.UsageErrors;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.distributed.Controller;
import io.ricochet.loadgen.distributed.ControllerSettings;
import io.ricochet.loadgen.distributed.LocalExecutor;
import io.ricochet.loadgen.distributed.RunSecret;
import io.ricochet.loadgen.distributed.WorkerExecutor;
import io.ricochet.loadgen.distributed.WorkerLoss;
import io.ricochet.loadgen.k8s.KubernetesExecutor;
import io.ricochet.loadgen.k8s.KubernetesSettings;
import io.ricochet.loadgen.k8s.PodScrapeTargets;
import io.ricochet.loadgen.k8s.RunVerdict;
import io.ricochet.loadgen.plan.CapacityPlan;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.RpcSummaryTable;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.SummaryTable;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.report.threshold.Thresholds;
import io.ricochet.loadgen.run.ScenarioWorkloads;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.ScenarioFileException;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import io.ricochet.loadgen.scenario.ScenarioKeys;
import io.ricochet.loadgen.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code controller} command: one scenario run over several workers. Longer than 300 lines: a picocli command
 * whose option declarations (a Kubernetes group among them) and the checks and steps of one run all read the same
 * option fields.
 */
@Command(name = "controller", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a scenario over --workers workers as one run: local worker JVMs (default) or a Kubernetes "
                + "Indexed Job. Splits connections, rates and seeds, starts the workers together, merges their "
                + "histograms exactly, and writes the usual report plus workers.csv. Controller options come "
                + "first, then the scenario, e.g. controller --workers 4 echo --connections 8000 --duration 30s.")
class ControllerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--workers", required = true, description = "Workers to split the scenario over.")
    int workers;

    @Option(names = "--executor", defaultValue = "local",
            description = "local (worker JVMs on this machine) or kubernetes (an Indexed Job) (default: ${DEFAULT-VALUE}).")
    String executor;

    @Option(names = "--weights", split = ",", description = "Relative share of each worker, e.g. 1,1,2 (default: equal).")
    double[] weights;

    @Option(names = "--start-timeout", defaultValue = "60s", converter = ValueConverters.DurationConverter.class,
            description = "How long the start barrier waits for every worker (default: ${DEFAULT-VALUE}).")
    Duration startTimeout;

    @Option(names = "--stall-timeout", converter = ValueConverters.DurationConverter.class,
            description = "A running worker silent this long has stopped reporting (default: 5 intervals + 10s).")
    Duration stallTimeout;

    @Option(names = "--on-worker-loss", defaultValue = "abort", converter = Converters.WorkerLossConverter.class,
            paramLabel = "abort|continue", description = "When a worker is lost after the start: abort stops the run at "
            + "once, writes what was measured and exits 1; continue goes on with the others, counts workers_lost, and "
            + "breaks every threshold on a total (default: ${DEFAULT-VALUE}).")
    WorkerLoss onWorkerLoss;

    @Option(names = "--bind", description = "Coordination endpoint address (default: 127.0.0.1 local, 0.0.0.0 kubernetes).")
    String bind;

    @Option(names = "--port", defaultValue = "0", description = "Coordination port; 0 = ephemeral (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--advertise", description = "Host workers connect to (default: 127.0.0.1 local; $POD_IP kubernetes).")
    String advertise;

    @Option(names = "--worker-jvm-args", split = " ", description = "JVM options of local workers, space-separated.")
    List<String> workerJvmArgs = List.of();

    @CommandLine.ArgGroup(exclusive = false, heading = "Kubernetes executor:%n")
    KubernetesOptions kubernetes = new KubernetesOptions();

    @Option(names = "--scenario", paramLabel = "FILE", description = "Run the scenario in FILE (YAML or JSON, "
            + "docs/load-generator.md, \"Scenarios\") instead of one given as a command and its options.")
    Path scenarioFile;

    @Parameters(arity = "0..*", paramLabel = "SCENARIO", description = "The scenario and its options: echo, rr, crr, "
            + "massive, rpc or register; or none, with --scenario.")
    List<String> scenario = List.of();

    static final class KubernetesOptions {
        @Option(names = "--namespace", description = "Namespace of the Job (default: the client's, from kubeconfig or the pod).")
        String namespace;

        @Option(names = "--image", description = "Worker image: Ricochet's, or one built FROM it, since the workers run "
                + "java ... -jar /app/load-generator.jar in it (default: in a pod, with POD_NAME set, the image of that "
                + "pod's first container; else " + KubernetesSettings.DEFAULT_IMAGE + ").")
        String image;

        @Option(names = "--job-name", description = "Name of the Job (default: ricochet-workers-<random>).")
        String jobName;

        @Option(names = "--verdict-job", paramLabel = "JOB", description = "When the run ends, write its verdict on "
                + "Job JOB (the controller's own, in k8s/): the annotation ricochet.io/verdict, a ConfigMap with the "
                + "summary and every threshold's verdict, and an Event (docs/kubernetes.md).")
        String verdictJob;

        @Option(names = "--keep", description = "Keep the Job after the run instead of deleting it.")
        boolean keep;

        @Option(names = "--ttl", defaultValue = "600", description = "ttlSecondsAfterFinished of the Job: seconds after "
                + "it ends that Kubernetes deletes it, if the controller has not (it was killed, or --keep) "
                + "(default: ${DEFAULT-VALUE}).")
        int ttlSeconds = 600;

        @Option(names = "--worker-cpu", defaultValue = "1", description = "CPU request and limit per worker pod (default: ${DEFAULT-VALUE}).")
        String cpu = "1";

        @Option(names = "--worker-memory", defaultValue = "2Gi", description = "Memory request and limit per worker pod (default: ${DEFAULT-VALUE}).")
        String memory = "2Gi";

        @Option(names = "--node-memory", defaultValue = "32Gi", description = "Memory of one node, for the plan's "
                + "count of nodes (default: ${DEFAULT-VALUE}).")
        String nodeMemory = "32Gi";

        @Option(names = "--instance", defaultValue = "default",
                description = "app.kubernetes.io/instance label of the Job (default: ${DEFAULT-VALUE}).")
        String instance = "default";

        @Option(names = "--scrape-selector", split = ",", paramLabel = "LABEL=VALUE",
                description = "Scrape every Ready pod these labels select in the namespace, at its IP, besides the "
                        + "scenario's --scrape: each replica, not the one a Service picks. Listed once, at the start.")
        Map<String, String> scrapeSelector;

        @Option(names = "--scrape-port", defaultValue = "9100",
                description = "Metrics port of the pods --scrape-selector selects (default: ${DEFAULT-VALUE}).")
        int scrapePort = 9100;

        @Option(names = "--scrape-path", defaultValue = "/metrics",
                description = "Metrics path of the pods --scrape-selector selects (default: ${DEFAULT-VALUE}).")
        String scrapePath = "/metrics";
    }

    /** The scenario to split, and the command line that gave it (null for one from a file). */
    private record Parsed(Scenario scenario, LoadCommand command) {
    }

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        boolean onKubernetes = onKubernetes();
        if (workers < 1) {
            throw usage("workers: " + workers + " (expected: >= 1)");
        }
        checkScrapeSelector(onKubernetes);
        if (kubernetes.verdictJob != null && !onKubernetes) {
            throw usage("verdict-job: " + kubernetes.verdictJob + " (expected: with --executor kubernetes, in the "
                    + "controller's Job)");
        }
        double[] shares = weights();
        Parsed parsed = parseScenario();
        Scenario s = parsed.scenario();
        checkScenario(s, shares, onKubernetes, parsed.command() != null);
        Workload workload = workload(parsed);
        CapacityPlan capacity = Plans.plan(s, workload, shares, true, onKubernetes,
                onKubernetes ? bytes("--worker-memory", kubernetes.memory) : 0,
                bytes("--node-memory", kubernetes.nodeMemory));
        Integer planned = planned(capacity, onKubernetes, s, shares);
        if (planned != null) {
            return planned;
        }
        requireFits(capacity, err);
        return run(s, workload, shares, onKubernetes, err);
    }

    /** Says the plan, and refuses a run that does not fit it. */
    private void requireFits(CapacityPlan capacity, PrintStream err) {
        capacity.lines().forEach(line -> err.println("plan: " + line));
        if (!capacity.fits()) {
            throw new ParameterException(spec.commandLine(), "refused before sending anything: " + capacity.refusal());
        }
    }

    private boolean onKubernetes() {
        return switch (executor) {
            case "local" -> false;
            case "kubernetes" -> true;
            default -> throw usage("executor: " + executor + " (expected: local or kubernetes)");
        };
    }

    /**
     * The scenario to split: the SCENARIO words parsed as the load generator's command line (one of the commands that
     * split over workers, with its own {@code --scenario} if it has one), or {@code --scenario}'s file.
     */
    private Parsed parseScenario() {
        if (scenario.isEmpty()) {
            if (scenarioFile == null) {
                throw usage("scenario: none (expected: a command and its options, e.g. echo --connections 8000, or "
                        + "--scenario FILE)");
            }
            Scenario s;
            try {
                s = ScenarioFiles.read(scenarioFile, null);
            } catch (ScenarioFileException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (!s.command().distributable()) {
                throw usage("scenario: '" + s.command().label() + "' cannot be split over workers (expected: echo, rr, "
                        + "crr, massive, rpc or register)");
            }
            return new Parsed(s, null);
        }
        if (scenarioFile != null) {
            throw usage("--scenario " + scenarioFile + " with a scenario's command (expected: one of them; the "
                    + "command takes --scenario too)");
        }
        ParseResult parsed;
        try {
            parsed = LoadGeneratorMain.newCommandLine().parseArgs(scenario.toArray(String[]::new));
        } catch (ParameterException e) {
            throw usage("scenario: " + e.getMessage());
        }
        ParseResult sub = parsed.subcommand();
        if (sub == null || !(sub.commandSpec().userObject() instanceof ScenarioCommand command)) {
            throw usage("scenario: '" + scenario.get(0) + "' cannot be split over workers (expected: echo, rr, crr, massive, rpc or register)");
        }
        try {
            return new Parsed(command.scenario(), command);
        } catch (ParameterException e) {
            // The scenario's own words were parsed on a command line of their own: the message is this command's.
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The workload the scenario runs, made once here too: its problems are found before any worker starts. */
    private Workload workload(Parsed parsed) {
        try {
            return ScenarioWorkloads.of(parsed.scenario());
        } catch (ScenarioException e) {
            throw new ParameterException(spec.commandLine(), parsed.command() != null
                    ? parsed.command().usage(e).getMessage() : "invalid option value: " + e.getMessage());
        }
    }

    /** Refuses, before anything starts (an embedded server, workers), a scenario that cannot be split or shipped. */
    private void checkScenario(Scenario s, double[] shares, boolean onKubernetes, boolean fromFlags) {
        try {
            for (int i = 0; i < shares.length; i++) {
                s.shard(i, shares);
            }
        } catch (ScenarioException e) {
            // Named as the user gave it: --source-addresses's values, or the file's source_addresses.
            throw usage(fromFlags ? e.render(key -> ScenarioKeys.flag(s.command(), key)) : e.getMessage());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (onKubernetes && s.target() == null) {
            throw usage("scenario: --target is required with --executor kubernetes (the echo-server Service)");
        }
        if (onKubernetes && (s.tls().ca() != null || s.tls().clientCert() != null)) {
            // Worker pods cannot read files on this machine; shipping them (a Secret) is not built yet.
            throw usage("scenario: --tls-ca and --client-cert with --executor kubernetes are not supported yet "
                    + "(worker pods cannot read this machine's files; use the image's trust store or --insecure)");
        }
    }

    /** Resolves the target, then runs the workers under one controller and concludes as a single run would. */
    private int run(Scenario s, Workload workload, double[] shares, boolean onKubernetes, PrintStream err)
            throws Exception {
        try (StandAlone alone = StandAlone.open(s, err);
                EmbeddedTargets.Target target = EmbeddedTargets.resolve(s, workload, err)) {
            Scenario resolved = target.scenario();
            String where = resolved.target().toString();
            List<URI> scrape = scrapeUrls(target.scrape(), err);
            List<Scenario> shards = ControllerSettings.shards(resolved, shares, !onKubernetes);
            Duration stall = stallTimeout != null ? stallTimeout : ControllerSettings.stallTimeout(s);
            String bindHost = bind != null ? bind : onKubernetes ? "0.0.0.0" : "127.0.0.1";
            ControllerSettings settings = new ControllerSettings(s.command().label(), where, shards, bindHost, port,
                    advertised(onKubernetes), s.interval(), startTimeout, stall, ControllerSettings.warmup(s), scrape,
                    s.report(), err, runConfig(s, where), RunSecret.generate(), alone.intervals(), onWorkerLoss);
            return runWorkers(settings, s, alone, err);
        }
    }

    /** The merged report's config.json. */
    private Map<String, Object> runConfig(Scenario s, String target) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", s.command().label());
        if (!scenario.isEmpty()) {
            config.put("scenario", scenario);
        } else {
            config.put("scenario_file", scenarioFile.toString());
        }
        config.put("target", target);
        if (!s.command().rpc()) {
            // As a single run's config.json has it: the report shades the warmup before the first interval.
            config.put("warmup_s", s.effectiveWarmup().toNanos() / 1e9);
        }
        ScenarioRuns.putStages(config, s);
        return config;
    }

    /** Starts the workers, waits for the merged run, prints and writes it; the exit status. */
    private int runWorkers(ControllerSettings settings, Scenario s, StandAlone alone, PrintStream err)
            throws Exception {
        try (Controller controller = new Controller(settings);
                WorkerExecutor workersExecutor = executor(s.report())) {
            alone.onStop(() -> {
                err.println("controller: stopping every worker");
                controller.stop();
            });
            // A threshold's abort stops every worker as Ctrl-C does; the merged report keeps what was measured.
            alone.live().onAbort(controller::stop);
            DistributedSummary summary = controller.run(workersExecutor, executor);
            // Refused calls: a worker or a stranger sent what the run would not take, so its figures may be off.
            int exit = !controller.allWorkersSucceeded() || summary.refusedInputs() > 0 ? ExitCodes.FAILURE
                    : RunSupport.exitStatus(summary.merged(), s.maxErrorRate());
            exit = RunSupport.conclude(s, alone.live(), summary, exit, () -> printTables(summary, s),
                    spec.commandLine().getOut());
            if (summary.workersLost() > 0) {
                // Its figures are of a smaller load than asked: the run failed, whatever its thresholds say.
                exit = ExitCodes.FAILURE;
            }
            Reports.writeHtml(s.report(), spec.commandLine().getErr());
            exit = alone.exitStatus(exit);
            if (kubernetes.verdictJob != null) {
                publishVerdict(s, alone, summary, exit, err);
            }
            return exit;
        }
    }

    /**
     * Writes the run's verdict where Kubernetes users look ({@link RunVerdict}); an API that refuses it is a warning:
     * the run's figures and exit status stand.
     */
    private void publishVerdict(Scenario s, StandAlone alone, DistributedSummary summary, int exit, PrintStream err) {
        List<Threshold.Result> results = alone.live().complete(Thresholds.check(s.thresholds(), summary));
        String aborted = alone.live().abortReason() != null ? alone.live().abortReason() : summary.aborted() != null
                ? summary.aborted() : alone.stopped() ? "stopped by a signal" : null;
        RunVerdict.Outcome.Kind kind = aborted != null ? RunVerdict.Outcome.Kind.ABORTED
                : exit == ExitCodes.OK ? RunVerdict.Outcome.Kind.PASSED : RunVerdict.Outcome.Kind.FAILED;
        Summary m = summary.merged();
        long held = results.stream().filter(Threshold.Result::passed).count();
        String message = kind.label() + ": " + (aborted != null ? aborted + "; " : "") + m.requests() + " requests, "
                + String.format(java.util.Locale.ROOT, "%.0f", m.qps()) + " qps, p99 " + m.latencyUs().p99() + " us, "
                + m.errors() + " errors, " + m.bad() + " bad" + (results.isEmpty() ? ""
                : ", thresholds " + held + " of " + results.size() + " held") + ", exit " + exit;
        String json;
        try {
            json = ReportWriter.JSON.writeValueAsString(Thresholds.withResults(summary, results, aborted));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            json = "{}";
        }
        // The run's name: its pod's, or, outside one, the Job's and the time, so that a rerun does not collide.
        String run = System.getenv("POD_NAME") != null ? System.getenv("POD_NAME")
                : kubernetes.verdictJob + "-" + System.currentTimeMillis() / 1000;
        try (KubernetesClient client = KubernetesExecutor.connect()) {
            String namespace = kubernetes.namespace != null ? kubernetes.namespace
                    : client.getNamespace() != null ? client.getNamespace() : "default";
            String name = RunVerdict.publish(client, namespace, kubernetes.verdictJob, run,
                    new RunVerdict.Outcome(kind, message, json));
            err.println("controller: verdict " + kind.label() + " written on job/" + kubernetes.verdictJob
                    + ", configmap/" + name + " and an event");
        } catch (KubernetesClientException e) {
            err.println("warning: cannot write the verdict on job/" + kubernetes.verdictJob + ": " + e.getMessage());
        }
    }

    /** The merged run as the scenario prints it alone, then a line per worker. */
    private void printTables(DistributedSummary summary, Scenario s) {
        PrintWriter out = spec.commandLine().getOut();
        if (s.command().rpc()) {
            RpcSummaryTable.print(asRpc(summary.merged(), s), out);
        } else {
            SummaryTable.print(summary.merged(), out);
        }
        summary.workerRows().forEach(w -> out.printf("worker %d: %s %s, %d ok, %d errors%s%n", w.index(), w.state(),
                w.host(), w.ok(), w.errors(), w.reason().isEmpty() ? "" : ", " + w.reason()));
        out.flush();
    }

    /** The merged run in nbagent's columns; per-step and per-client figures stay in each worker's own report. */
    private static RpcSummary asRpc(Summary m, Scenario s) {
        int inFlight = s.command() == io.ricochet.loadgen.scenario.Command.RPC ? s.inFlight() : 1;
        return new RpcSummary(m.command(), m.target(), m.io(), s.requests(), m.connections(), inFlight, m.requests(),
                m.ok(), m.bad(), m.errors(), m.durationS(),
                Math.round(m.ok() / Math.max(m.durationS(), 1e-3) * 1000) / 1000.0, m.latencyUs(), m.latencyKind(),
                Map.of(), List.of(), m.server(), m.firstError(), m.firstBad());
    }

    private WorkerExecutor executor(Path report) throws IOException {
        if (executor.equals("local")) {
            Path logs = report != null ? report.resolve("workers") : Files.createTempDirectory("ricochet-workers");
            return new LocalExecutor(workers, workerJvmArgs, logs);
        }
        return new KubernetesExecutor(kubernetesSettings(), KubernetesExecutor::connect);
    }

    /** The workers' Job as the options say, owned by this pod when the downward API names it. */
    KubernetesSettings kubernetesSettings() {
        return new KubernetesSettings(kubernetes.namespace, jobName(), kubernetes.image, workers, kubernetes.ttlSeconds,
                kubernetes.cpu, kubernetes.memory, kubernetes.instance, kubernetes.keep, System.getenv("POD_NAME"),
                System.getenv("POD_UID"));
    }

    /** The host the workers are told to connect to. */
    String advertised(boolean onKubernetes) {
        return advertise != null ? advertise : onKubernetes ? podIp() : "127.0.0.1";
    }

    private void checkScrapeSelector(boolean onKubernetes) {
        if (kubernetes.scrapeSelector == null) {
            return;
        }
        if (!onKubernetes) {
            throw usage("scrape-selector: " + selector() + " (expected: with --executor kubernetes, which lists the pods)");
        }
        if (kubernetes.scrapePort < 1 || kubernetes.scrapePort > 65535) {
            throw usage("scrape-port: " + kubernetes.scrapePort + " (expected: 1 to 65535)");
        }
        if (!kubernetes.scrapePath.startsWith("/")) {
            throw usage("scrape-path: " + kubernetes.scrapePath + " (expected: a path starting with /)");
        }
    }

    /**
     * The scenario's --scrape URLs, then those of the pods --scrape-selector selects. A selector that selects no Ready
     * pod, or an API that cannot list them, is a warning as a failing scrape is: the load figures stand on their own.
     */
    private List<URI> scrapeUrls(List<URI> given, PrintStream err) {
        if (kubernetes.scrapeSelector == null) {
            return given;
        }
        try (KubernetesClient client = KubernetesExecutor.connect()) {
            String namespace = kubernetes.namespace != null ? kubernetes.namespace
                    : client.getNamespace() != null ? client.getNamespace() : "default";
            List<URI> pods = PodScrapeTargets.list(client, namespace, kubernetes.scrapeSelector, kubernetes.scrapePort,
                    kubernetes.scrapePath);
            if (pods.isEmpty()) {
                err.println("warning: --scrape-selector " + selector() + " selects no Ready pod in namespace " + namespace
                        + ": those servers' figures are missing");
            } else {
                err.println("controller: scraping " + pods.size() + " pod(s) that --scrape-selector " + selector()
                        + " selects in namespace " + namespace);
            }
            List<URI> all = new ArrayList<>(given);
            all.addAll(pods);
            return all;
        } catch (KubernetesClientException e) {
            err.println("warning: --scrape-selector " + selector() + ": cannot list the pods (" + e.getMessage()
                    + "): those servers' figures are missing");
            return given;
        }
    }

    private String selector() {
        return String.join(",", kubernetes.scrapeSelector.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .toList());
    }

    private String jobName() {
        return kubernetes.jobName != null ? kubernetes.jobName
                : "ricochet-workers-" + Long.toString(System.nanoTime() & 0xffffff, 36);
    }

    private double[] weights() {
        if (weights == null) {
            double[] equal = new double[workers];
            Arrays.fill(equal, 1);
            return equal;
        }
        if (weights.length != workers) {
            throw usage("weights: " + weights.length + " values (expected: one per worker, " + workers + ")");
        }
        for (double w : weights) {
            if (!(w > 0)) {
                throw usage("weights: " + w + " (expected: > 0)");
            }
        }
        return weights;
    }

    private static String podIp() {
        String ip = System.getenv("POD_IP");
        return ip != null ? ip : "127.0.0.1";
    }

    /**
     * The plan command's output and exit status, made instead of the run of {@code s} over workers weighted
     * {@code shares}; null to run: the controller.
     */
    Integer planned(CapacityPlan capacity, boolean onKubernetes, Scenario s, double[] shares) {
        return null;
    }

    private long bytes(String option, String quantity) {
        try {
            return Quantity.getAmountInBytes(new Quantity(quantity)).longValueExact();
        } catch (RuntimeException e) {
            throw usage(option.substring(2) + ": " + quantity + " (expected: a Kubernetes quantity, e.g. 2Gi)");
        }
    }

    ParameterException usage(String message) {
        return UsageErrors.invalidValue(spec.commandLine(), message);
    }
}
