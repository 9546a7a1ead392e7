package io.ricochet.loadgen.api;

import io.ricochet.loadgen.distributed.Controller;
import io.ricochet.loadgen.distributed.ControllerSettings;
import io.ricochet.loadgen.distributed.RunSecret;
import io.ricochet.loadgen.distributed.WorkerExecutor;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.report.threshold.LiveThresholds;
import io.ricochet.loadgen.run.ClientSecurity;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.run.ScenarioWorkloads;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.workload.Workload;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a built {@link Scenario} for {@link LoadTest}: in this JVM, or split over {@link Workers} under a controller,
 * which sends each worker its shard and merges their histograms exactly, as the {@code controller} command does.
 */
final class LoadRunner {
    private LoadRunner() {
    }

    /**
     * Runs {@code s} in this JVM with {@code workload} (null: the one its settings name) and {@code security} (null: the
     * one its settings build).
     */
    static LoadResult alone(Scenario s, Workload workload, ClientSecurity security, Map<String, Object> config,
            PrintStream progress) throws InterruptedException {
        requireTarget(s);
        Workload w = workload != null ? workload : ScenarioWorkloads.of(s);
        LiveThresholds live = ScenarioRuns.liveThresholds(s, progress);
        RunOptions options = new RunOptions(s.command().label(), s.scrape(), s.report(), progress, config,
                live.hooks(RunHooks.NONE));
        Object summary = ScenarioRuns.run(s, security != null ? security : ClientSecurity.of(s), w, options);
        return LoadResult.of(summary, s.thresholds(), live, s.report(), List.of(), List.of());
    }

    /**
     * Runs {@code s} over {@code workers}: its workload is made here first, so an unknown name or a refused parameter
     * fails before any worker starts.
     */
    static LoadResult distributed(Scenario s, Workers workers, PrintStream progress) throws Exception {
        requireTarget(s);
        if (!workers.local() && (s.tls().ca() != null || s.tls().clientCert() != null)) {
            // As the controller command refuses it: pods cannot read this machine's files.
            throw new IllegalArgumentException("tls.ca: " + (s.tls().ca() != null ? s.tls().ca() : s.tls().clientCert())
                    + " with " + workers.executorName() + " workers (expected: none; their pods cannot read this "
                    + "machine's files: use the image's trust store or tls.insecure)");
        }
        if (!s.command().distributable()) {
            throw new IllegalArgumentException("workers: " + s.command().label() + " cannot be split over workers "
                    + "(expected: echo, rr, crr, massive, rpc or register)");
        }
        ScenarioWorkloads.of(s);
        List<Scenario> shards = ControllerSettings.shards(s, workers.weights(), workers.local());
        PrintStream out = progress != null ? progress : new PrintStream(OutputStream.nullOutputStream());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", s.command().label());
        config.put("scenario", "LoadTest");
        config.put("target", s.target().toString());
        if (!s.command().rpc()) {
            config.put("warmup_s", s.effectiveWarmup().toNanos() / 1e9);
        }
        ScenarioRuns.putStages(config, s);
        LiveThresholds live = ScenarioRuns.liveThresholds(s, out);
        ControllerSettings settings = new ControllerSettings(s.command().label(), s.target().toString(), shards,
                workers.bindHost(), workers.port(), workers.advertiseHost(), s.interval(), workers.startTimeout(),
                ControllerSettings.stallTimeout(s), ControllerSettings.warmup(s),
                s.scrape(), s.report(), out, config, RunSecret.generate(), live, workers.onWorkerLoss());
        // Local workers' logs go beside the report, or to a directory of their own that a clean run removes.
        Path logs = s.report() != null ? s.report().resolve("workers")
                : workers.local() ? Files.createTempDirectory("ricochet-workers") : null;
        boolean ownLogs = s.report() == null && logs != null;
        boolean clean = false;
        try (Controller controller = new Controller(settings); WorkerExecutor executor = workers.executor(logs)) {
            live.onAbort(controller::stop);
            DistributedSummary summary;
            try {
                summary = controller.run(executor, workers.executorName());
            } catch (Exception | Error e) {
                // Interrupted (a test's timeout) or failed: stop every worker's load before the executor waits for them.
                controller.stop();
                throw e;
            }
            List<String> failed = new ArrayList<>(summary.problems());
            summary.workerRows().stream().filter(w -> !w.state().equals("DONE") || w.exitCode() > 1)
                    .forEach(w -> failed.add("worker " + w.index() + " " + w.state()
                            + (w.reason().isEmpty() ? "" : ": " + w.reason())));
            if (!controller.allWorkersSucceeded() && failed.isEmpty()) {
                failed.add("a worker did not finish its shard");
            }
            List<String> rows = summary.workerRows().stream().map(w -> "worker " + w.index() + ": " + w.state() + " "
                    + w.host() + ", " + w.ok() + " ok, " + w.errors() + " errors").toList();
            if (ownLogs && !failed.isEmpty()) {
                failed.add("the workers' logs are in " + logs);
            }
            clean = failed.isEmpty();
            return LoadResult.of(summary.merged(), summary, s.thresholds(), live, s.report(), rows, failed);
        } finally {
            // After the executor's close, which waits for the workers: a failed run keeps its logs to read.
            if (ownLogs && clean) {
                remove(logs);
            }
        }
    }

    /** Removes {@code dir} and its logs: the workers' processes have ended, and the run went as it should. */
    private static void remove(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            // Logs left in the temp directory: nothing measured depends on them.
        }
    }

    private static void requireTarget(Scenario s) {
        if (s.target() == null) {
            throw new IllegalArgumentException("target: none (expected: the servers to load)");
        }
    }
}
