package io.ricochet.loadgen.api;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.run.ClientSecurity;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.Values;
import io.ricochet.loadgen.scenario.TlsSettings;
import io.ricochet.loadgen.scenario.WorkloadSettings;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.loadgen.workload.Workload;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Runs a load test from code, on the engine the command line runs: every reply checked by the workload, latency in
 * HdrHistogram (corrected for coordinated omission at a rate), the same summary and report. Its builders make a
 * {@link Scenario}, the value the command line and a scenario file make too, so a test runs in this JVM or, with
 * {@link Common#workers}, split over several worker JVMs (or a Kubernetes Job) and merged exactly. Thresholds take the
 * {@code --threshold} syntax; {@link LoadResult#assertThresholds()} fails a test on a broken one.
 *
 * <pre>{@code
 * LoadResult result = LoadTest.tcp(new InetSocketAddress("127.0.0.1", port))
 *         .workload(myWorkload)
 *         .connections(100).rate(20_000).duration(Duration.ofSeconds(5))
 *         .threshold("p99<5ms").threshold("bad==0")
 *         .run();
 * result.assertThresholds();
 *
 * // The same test on 4 local worker JVMs: the workload by its WorkloadProvider name, since workers make their own.
 * LoadTest.tcp(target).workload("kv-text", Map.of("keys", "1000"))
 *         .connections(400).rate(20_000).duration(Duration.ofSeconds(10))
 *         .workers(LocalWorkers.of(4)).threshold("p99<5ms").run().assertThresholds();
 *
 * // A scenario file's test, as `--scenario` runs it.
 * LoadTest.of(ScenarioFiles.read(Path.of("kv.yaml"), null)).workers(LocalWorkers.of(2)).run();
 * }</pre>
 *
 * <p>Longer than 300 lines: its builders are nested ({@code LoadTest.Frames}, {@code LoadTest.Rpc}) as the public API
 * names them, and their length is their documented settings.
 */
public final class LoadTest {
    private LoadTest() {
    }

    /** A framed load over TCP against {@code target}. Defaults as echo's: 10 connections, 10 s, closed loop. */
    public static Frames tcp(InetSocketAddress target) {
        return new Frames(target, Protocol.TCP);
    }

    /** A framed load over UDP (one datagram per request, one in flight per socket) against {@code target}. */
    public static Frames udp(InetSocketAddress target) {
        return new Frames(target, Protocol.UDP);
    }

    /** A framed load over QUIC (a connection per lane, one stream each), trusting what {@code tls} trusts. */
    public static Frames quic(InetSocketAddress target, QuicSslContext tls) {
        Frames frames = new Frames(target, Protocol.QUIC);
        frames.quic = Objects.requireNonNull(tls, "tls");
        return frames;
    }

    /** An RPC load against the RPC server (or agent) at {@code target}. Defaults as rpc's: 50 clients, 200,000 calls. */
    public static Rpc rpc(InetSocketAddress target) {
        return new Rpc(target);
    }

    /**
     * The load test {@code scenario} describes, whichever made it: a scenario file ({@code ScenarioFiles.read}), a
     * builder, a test's own changes to either. Its settings are kept as they are; thresholds and the rest may be added.
     */
    public static Given of(Scenario scenario) {
        return new Given(Objects.requireNonNull(scenario, "scenario"));
    }

    /**
     * What every load test takes: thresholds, a report, progress, workers, and the settings framed and RPC loads share.
     * A setting's value is checked when the test runs ({@link #scenario()} or {@link #run()}), with the scenario's
     * message, which names its key: {@code connections: 0 (expected: > 0)}.
     */
    public abstract static class Common<B extends Common<B>> {
        final Scenario.Builder scenario;
        Workload workload;
        Tls tls;
        ClientNoiseConfig noise;
        QuicSslContext quic;
        private PrintStream progress;
        private Workers workers;

        Common(Scenario.Builder scenario) {
            this.scenario = scenario;
        }

        @SuppressWarnings("unchecked")
        final B self() {
            return (B) this;
        }

        /**
         * A pass/fail condition on the result, in {@code --threshold}'s syntax: {@code p99<2ms}, {@code errors==0},
         * {@code qps>10k}, {@code error_rate<=0.1%}. A malformed one is an {@link IllegalArgumentException} here.
         */
        public B threshold(String expression) {
            scenario.threshold(Threshold.parse(expression));
            return self();
        }

        /** Writes the run's report (summary.json, report data, intervals) into {@code dir}. */
        public B report(Path dir) {
            scenario.report(dir);
            return self();
        }

        /** Prints a progress line per interval to {@code out} (default: none). */
        public B progress(PrintStream out) {
            this.progress = out;
            return self();
        }

        /**
         * Splits the test over {@code workers} ({@link LocalWorkers}, or {@code KubernetesWorkers} from
         * {@code ricochet-load-kubernetes}) and merges their histograms exactly. Each worker makes its own workload,
         * so the workload is named ({@code workload(name, params)}, a payload, generated bodies), not an object; and
         * its security comes from the scenario's settings, not a {@code Tls} object.
         */
        public B workers(Workers workers) {
            this.workers = Objects.requireNonNull(workers, "workers");
            return self();
        }

        /**
         * The workload a {@code WorkloadProvider} named {@code name} makes from {@code params}, found on the class
         * path (its {@code META-INF/services} entry), as {@code --workload} finds it.
         */
        public B workload(String name, Map<String, String> params) {
            scenario.workload(WorkloadSettings.named(Objects.requireNonNull(name, "name"), params));
            this.workload = null;
            return self();
        }

        /** Requests in all (RPC: calls, split evenly over the clients); a framed load then stops at that count. */
        public B requests(long requests) {
            scenario.requests(requests);
            return self();
        }

        /** Total requests per second, open loop: latency corrected for coordinated omission. */
        public B rate(double requestsPerSecond) {
            scenario.rate(requestsPerSecond);
            return self();
        }

        /** A reply not back by then is an error; an RPC call's deadline (default: 5 s; RPC 10 s). */
        public B timeout(Duration timeout) {
            scenario.timeout(timeout);
            return self();
        }

        /** The seed of the bodies and of the workload's random sources. */
        public B seed(long seed) {
            scenario.seed(seed);
            return self();
        }

        /** Client I/O and its event-loop threads (default: auto, one thread). */
        public B io(TransportKind io, int threads) {
            scenario.io(io).ioThreads(threads);
            return self();
        }

        /** Over TLS (TCP), as {@code tls} is configured: in this JVM only. */
        public B tls(Tls tls) {
            this.tls = Objects.requireNonNull(tls, "tls");
            scenario.tls(withEnabled(scenario.tls(), true));
            return self();
        }

        /**
         * Over TLS (TCP) as {@code settings} say: whom to trust ({@code ca}, or {@code insecure}), a client certificate,
         * the provider. These are sent to workers, which read the files they name. Over QUIC, they replace the context
         * {@link LoadTest#quic} was given (with {@code enabled} false: QUIC always runs TLS).
         */
        public B tls(TlsSettings settings) {
            this.tls = null;
            // Over QUIC, these settings say whom its TLS trusts, in place of a context made in code.
            this.quic = null;
            scenario.tls(Objects.requireNonNull(settings, "settings"));
            return self();
        }

        /** Over the Noise channel (TCP), as {@code noise} is configured: in this JVM only. */
        public B noise(ClientNoiseConfig noise) {
            this.noise = Objects.requireNonNull(noise, "noise");
            return self();
        }

        /** The scenario these settings make, validated: what {@code --print-scenario} would print of it. */
        public Scenario scenario() {
            Scenario s = scenario.build();
            java.util.List<String> ignored = io.ricochet.loadgen.scenario.ScenarioFiles.ignoredSettings(s);
            if (!ignored.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", ignored) + " (expected: none; "
                        + s.command().label() + " does not take " + (ignored.size() == 1 ? "it" : "them") + ")");
            }
            return s;
        }

        /**
         * Runs the test to its end and returns its result; a bad setting is an {@link IllegalArgumentException} naming
         * its key, and an interrupted test an {@link InterruptedException}.
         */
        public LoadResult run() throws InterruptedException {
            Scenario s = scenario();
            if (noise != null && s.tls().enabled() || tls != null && s.noise().enabled()) {
                throw new IllegalArgumentException("noise: a Noise configuration with TLS (expected: one or the "
                        + "other)");
            }
            if (workers == null) {
                ClientSecurity security = tls == null && noise == null && quic == null ? null
                        : new ClientSecurity(tls, noise, quic);
                Map<String, Object> config = new LinkedHashMap<>();
                if (workload != null) {
                    config.put("workload", workload.getClass().getName());
                }
                return LoadRunner.alone(s, workload, security, config, progress);
            }
            if (workload != null) {
                throw new IllegalArgumentException("workload: " + workload.getClass().getName() + " is an object, "
                        + "which workers cannot make (expected: workload(name, params), a payload or generated bodies)");
            }
            if (quic != null) {
                throw new IllegalArgumentException("tls: a QuicSslContext cannot be sent to workers (expected: "
                        + "tls(TlsSettings) naming whom to trust, its ca or insecure; QUIC always runs TLS)");
            }
            if (tls != null || noise != null) {
                throw new IllegalArgumentException("tls: a " + (noise != null ? "Noise" : "TLS") + " configuration "
                        + "object cannot be sent to workers (expected: tls(TlsSettings), or LoadTest.of a scenario "
                        + "with its tls or noise settings)");
            }
            try {
                return LoadRunner.distributed(s, workers, progress);
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("workers: " + e.getMessage(), e);
            }
        }

        private static TlsSettings withEnabled(TlsSettings t, boolean enabled) {
            return new TlsSettings(enabled, t.ca(), t.insecure(), t.clientCert(), t.clientKey(), t.provider(),
                    t.resume(), t.earlyData());
        }
    }

    /** A framed load: see {@link LoadTest#tcp}. */
    public static final class Frames extends Common<Frames> {
        private Frames(InetSocketAddress target, Protocol protocol) {
            super(Scenario.builder(Command.ECHO).target(Targets.of(Objects.requireNonNull(target, "target")))
                    .transport(protocol));
        }

        /** The workload: what each request is and how its reply is checked (default: echo's generated bodies). */
        public Frames workload(FrameWorkload workload) {
            this.workload = Objects.requireNonNull(workload, "workload");
            return this;
        }

        /**
         * A no-code workload, as {@code --payload} and {@code --expect}: {@code payload} (text with placeholders such
         * as {@code {{seq}}}, {@code @FILE} or {@code hex:HEX}) sent as each request, each reply checked as
         * {@code expect} says ({@code reversed}, {@code echo}, {@code equals:TEXT}, {@code regex:RE}; null: reversed).
         */
        public Frames payload(String payload, String expect) {
            scenario.workload(WorkloadSettings.payload(Objects.requireNonNull(payload, "payload"), expect));
            this.workload = null;
            return this;
        }

        public Frames connections(int n) {
            scenario.connections(n);
            return this;
        }

        /** Requests each connection keeps in flight (closed loop), or at most has in flight at a rate. */
        public Frames pipeline(int n) {
            scenario.pipeline(n);
            return this;
        }

        /** Requests per second of each connection, open loop (held connections that send rarely). */
        public Frames perConnectionRate(double requestsPerSecond) {
            scenario.perConnectionRate(requestsPerSecond);
            return this;
        }

        /**
         * The load's shape over time, as {@code --stages} takes it: rates ({@code "0:10s,20k:30s,20k:1m,0:10s"}, open
         * loop, each stage ramping from the last target, or held with {@code :step}) or connections
         * ({@code "100conns:10s,100conns:1m"}, opened as the target rises, drained and retired as it falls). The run
         * lasts their total; a rate, a connection count or a duration given besides must agree with them.
         *
         * <pre>{@code
         * LoadResult r = LoadTest.tcp(server).connections(50).stages("2k:5s,2k:10s,0:5s").run();
         * }</pre>
         */
        public Frames stages(String stages) {
            scenario.stages(Values.stages(Objects.requireNonNull(stages, "stages")));
            return this;
        }

        /** New connections per second while opening them; 0 (the default) opens them all at once. */
        public Frames connectRate(double connectionsPerSecond) {
            scenario.connectRate(connectionsPerSecond);
            return this;
        }

        public Frames duration(Duration duration) {
            scenario.duration(duration);
            return this;
        }

        /** Load before measuring, not counted (default: 2 s at a rate, none in closed loop, as on the command line). */
        public Frames warmup(Duration warmup) {
            scenario.warmup(warmup);
            return this;
        }

        /**
         * The frames' length field: {@link LengthField#TWO} by default, as the echo server's; a service whose frames
         * carry a 4-byte length needs {@code .lengthField(LengthField.FOUR)}, else no request is answered.
         */
        public Frames lengthField(LengthField field) {
            scenario.lengthField(field);
            return this;
        }

        /** A connection of its own per request, as netperf's TCP_CRR: its latency runs from the connect. */
        public Frames connectionPerRequest() {
            scenario.command(Command.CRR);
            return this;
        }

        /** With a connection per request over TLS or QUIC: resume earlier sessions rather than a full handshake each. */
        public Frames tlsResume() {
            TlsSettings t = scenario.tls();
            scenario.tls(new TlsSettings(t.enabled(), t.ca(), t.insecure(), t.clientCert(), t.clientKey(),
                    t.provider(), true, t.earlyData()));
            return this;
        }
    }

    /** An RPC load: see {@link LoadTest#rpc}. */
    public static final class Rpc extends Common<Rpc> {
        private Rpc(InetSocketAddress target) {
            super(Scenario.builder(Command.RPC).target(Targets.of(Objects.requireNonNull(target, "target"))));
        }

        /** The workload: what each call is and how its answer is checked (default: the bench service's calls). */
        public Rpc workload(RpcWorkload workload) {
            this.workload = Objects.requireNonNull(workload, "workload");
            return this;
        }

        /** Clients, one connection each. */
        public Rpc clients(int n) {
            scenario.connections(n);
            return this;
        }

        /** Calls each client keeps waiting, pipelined on its connection. */
        public Rpc inFlight(int n) {
            scenario.inFlight(n);
            return this;
        }

        /** Calls run first on the same connections, not counted. */
        public Rpc warmup(long calls) {
            scenario.warmupRequests(calls);
            return this;
        }
    }

    /** A load test from a {@link Scenario}: see {@link LoadTest#of}. */
    public static final class Given extends Common<Given> {
        private Given(Scenario scenario) {
            super(scenario.toBuilder());
        }
    }
}
