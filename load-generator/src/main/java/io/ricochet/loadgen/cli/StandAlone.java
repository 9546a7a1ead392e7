package io.ricochet.loadgen.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.loadgen.metrics.GeneratorMetrics;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.report.threshold.LiveThresholds;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.metrics.JvmProcessMetrics;
import io.ricochet.metrics.MetricsEndpoint;
import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * What a command run by a person (not as a controller's worker) has around its loads: Ctrl-C and SIGTERM end it with
 * what it measured ({@link StopSignals}), and {@code --metrics-port} serves its figures to Prometheus while it runs
 * ({@link GeneratorMetrics}). Its {@link #hooks} carry both into every load the command runs.
 */
final class StandAlone implements AutoCloseable {
    private final StopSignals signals;
    /** What {@code --metrics-port} started, or null without it. */
    private final Served served;
    private final LiveThresholds live;

    private StandAlone(StopSignals signals, Served served, LiveThresholds live) {
        this.signals = signals;
        this.served = served;
        this.live = live;
    }

    /** The figures the endpoint serves, the process's and the run's, and the endpoint: started and closed together. */
    private record Served(GeneratorMetrics metrics, JvmProcessMetrics jvm, MetricsEndpoint endpoint) {
        void close() {
            endpoint.close();
            jvm.close();
        }
    }

    /** Installs the stop signals and, with {@code --metrics-port}, starts the endpoint and says where it is. */
    static StandAlone open(Scenario s, PrintStream err) {
        if (s.metricsPort() == null) {
            return new StandAlone(StopSignals.install(err), null, ScenarioRuns.liveThresholds(s, err));
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JvmProcessMetrics jvm = new JvmProcessMetrics();
        jvm.bindTo(registry);
        GeneratorMetrics metrics = new GeneratorMetrics();
        registry.getPrometheusRegistry().register(metrics);
        MetricsEndpoint endpoint;
        try {
            endpoint = MetricsEndpoint.start(s.metricsHost(), s.metricsPort(), registry);
        } catch (IllegalStateException e) {
            jvm.close();
            throw e;
        }
        err.println("metrics " + endpoint.metricsUrl());
        return new StandAlone(StopSignals.install(err), new Served(metrics, jvm, endpoint),
                ScenarioRuns.liveThresholds(s, err));
    }

    /**
     * The hooks of a load this command runs: a stop signal ends it, its intervals feed the metrics and the live
     * thresholds, and a threshold's abort ends it.
     */
    RunHooks hooks() {
        return live.hooks(hooks(served != null ? served.metrics() : null));
    }

    /** The command's thresholds as judged during its run: what {@link RunSupport#conclude} adds to the end's verdicts. */
    LiveThresholds live() {
        return live;
    }

    /** The hooks of an uncounted load (ramp's warmup step): a stop signal ends it; the metrics never see it. */
    RunHooks uncountedHooks() {
        return hooks(null);
    }

    private RunHooks hooks(Consumer<Interval> intervals) {
        return new RunHooks() {
            @Override
            public void interval(Interval data) {
                if (intervals != null) {
                    intervals.accept(data);
                }
            }

            @Override
            public boolean stopRequested() {
                return signals.received();
            }
        };
    }

    /** Where the controller's merged intervals go: the metrics, then the live thresholds. */
    Consumer<Interval> intervals() {
        return served != null ? served.metrics().andThen(live) : live;
    }

    /** Whether a signal asked the run to stop: a command of several runs starts no more. */
    boolean stopped() {
        return signals.received();
    }

    /** What else a stop does (the controller stops its workers). */
    void onStop(Runnable action) {
        signals.onStop(action);
    }

    /** {@code exit}, or 130 / 143 when Ctrl-C or SIGTERM ended the run. */
    int exitStatus(int exit) {
        return signals.exitStatus(exit);
    }

    @Override
    public void close() {
        signals.close();
        if (served != null) {
            served.close();
        }
    }
}
