package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.scenario.Scenario;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every command takes: where to send, how to report, and the scenario file they may start from. */
final class CommonOptions {
    @Option(names = "--scenario", paramLabel = "FILE",
            description = "Start from the scenario in FILE (YAML or JSON; docs/load-generator.md, \"Scenarios\"): the "
                    + "flags given with it set what they name over the file's settings.")
    Path scenarioFile;

    @Option(names = "--print-scenario", description = "Print the scenario these flags (and --scenario) resolve to, as "
            + "YAML, and exit without running it.")
    boolean printScenario;

    @Option(names = "--target", converter = Converters.TargetConverter.class, paramLabel = "HOST:PORT[-PORT],...",
            description = "Server HOST:PORT, or several and port ranges (127.0.0.1:7000-7005,10.0.0.5:7000) over which "
                    + "connections are dealt round-robin. Omitted: start an embedded echo server on an ephemeral "
                    + "loopback port.")
    Targets target;

    @Option(names = "--scrape", converter = MetricsUrlConverter.class, split = ",", paramLabel = "URL",
            description = "A server's Prometheus /metrics URL, sampled every interval (automatic for the embedded "
                    + "server). Several servers: comma-separated or repeated; their counters are summed, each keeps a row.")
    List<URI> scrape = new ArrayList<>();

    @Option(names = "--report", paramLabel = "DIR", description = "Directory for the run's report: summary.json and "
            + "report.html; and for a run measured interval by interval (not sweep or ramp), config.json, intervals.csv "
            + "and HdrHistogram logs (.hlog, in microseconds).")
    Path report;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve the generator's own Prometheus /metrics on this port while it runs (0: an ephemeral "
                    + "port; the URL is printed). A controller serves the merged run's.")
    Integer metricsPort;

    @Option(names = "--metrics-host", defaultValue = "127.0.0.1", paramLabel = "HOST",
            description = "Address --metrics-port binds; 0.0.0.0 for a scraper elsewhere (default: ${DEFAULT-VALUE}).")
    String metricsHost;

    @Option(names = "--interval", defaultValue = "1s", converter = ValueConverters.DurationConverter.class,
            description = "Progress and report interval (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the request bodies (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print the summary as JSON on stdout instead of the table.")
    boolean json;

    @Option(names = "--io", defaultValue = "auto", converter = ValueConverters.TransportKindConverter.class,
            description = "Client I/O: auto, io_uring, epoll or nio (default: ${DEFAULT-VALUE}).")
    TransportKind io;

    @Option(names = "--io-threads", defaultValue = "1",
            description = "Client event-loop threads; 0 = one per core (default: ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--server-io-threads", defaultValue = "1",
            description = "Event-loop threads of the embedded server (default: ${DEFAULT-VALUE}).")
    int serverIoThreads;

    @Option(names = "--max-error-rate", defaultValue = "0",
            description = "Errors (not bad replies) tolerated before exit status 1, as a fraction of requests (default: ${DEFAULT-VALUE}).")
    double maxErrorRate;

    @Option(names = "--threshold", converter = Converters.ThresholdConverter.class, paramLabel = "EXPR",
            description = "A pass/fail condition on the summary, repeatable: p99<2ms, errors==0, qps>100k, "
                    + "error_rate<=0.1%%, loss<1%%. A broken one makes the run exit 99; the summary says which.")
    List<Threshold> thresholds = new ArrayList<>();

    @Option(names = "--worker-index", hidden = true, defaultValue = "0",
            description = "This process's index among a controller's workers, which workloads see; the controller sets it.")
    int workerIndex;

    @Mixin
    TlsOptions tls = new TlsOptions();

    @Mixin
    NoiseOptions noise = new NoiseOptions();

    /** Sets on {@code b} what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--target")) {
            b.target(target);
        }
        if (given.test("--scrape")) {
            b.scrape(scrape);
        }
        if (given.test("--report")) {
            b.report(report);
        }
        if (given.test("--metrics-port")) {
            b.metricsPort(metricsPort);
        }
        if (given.test("--metrics-host")) {
            b.metricsHost(metricsHost);
        }
        if (given.test("--interval")) {
            b.interval(interval);
        }
        if (given.test("--seed")) {
            b.seed(seed);
        }
        if (given.test("--json")) {
            b.json(json);
        }
        if (given.test("--io")) {
            b.io(io);
        }
        if (given.test("--io-threads")) {
            b.ioThreads(ioThreads);
        }
        if (given.test("--server-io-threads")) {
            b.serverIoThreads(serverIoThreads);
        }
        if (given.test("--max-error-rate")) {
            b.maxErrorRate(maxErrorRate);
        }
        if (given.test("--threshold")) {
            b.thresholds(thresholds);
        }
        if (given.test("--worker-index")) {
            b.worker(workerIndex);
        }
        tls.applyTo(b, given);
        noise.applyTo(b, given);
    }
}
