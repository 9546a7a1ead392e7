package io.ricochet.loadgen.api;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RpcLoad;
import io.ricochet.loadgen.engine.RpcSpec;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RpcRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs a load test from code, on the engine the command line runs: every reply checked by the workload, latency in
 * HdrHistogram (corrected for coordinated omission at a rate), the same summary and report. Thresholds take the
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
 * LoadResult calls = LoadTest.rpc(new InetSocketAddress("127.0.0.1", rpcPort))
 *         .workload(myRpcWorkload).clients(10).inFlight(4).requests(50_000)
 *         .threshold("errors==0").run();
 * }</pre>
 *
 * <p>Longer than 300 lines: its builders are nested ({@code LoadTest.Frames}, {@code LoadTest.Rpc}) as the public API
 * names them, and their length is their documented settings.
 */
public final class LoadTest {
    private LoadTest() {
    }

    /** A framed load over TCP against {@code target}. */
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
        frames.spec.quic(Objects.requireNonNull(tls, "tls"));
        return frames;
    }

    /** An RPC load against the RPC server (or agent) at {@code target}. */
    public static Rpc rpc(InetSocketAddress target) {
        return new Rpc(target);
    }

    /** What both kinds of load test take: thresholds, a report, progress. */
    abstract static class Common<B extends Common<B>> {
        final List<Threshold> thresholds = new ArrayList<>();
        Path report;
        PrintStream progress;

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /**
         * A pass/fail condition on the result, in {@code --threshold}'s syntax: {@code p99<2ms}, {@code errors==0},
         * {@code qps>10k}, {@code error_rate<=0.1%}. A malformed one is an {@link IllegalArgumentException} here.
         */
        public B threshold(String expression) {
            thresholds.add(Threshold.parse(expression));
            return self();
        }

        /** Writes the run's report (summary.json, report data, intervals) into {@code dir}. */
        public B report(Path dir) {
            this.report = dir;
            return self();
        }

        /** Prints a progress line per interval to {@code out} (default: none). */
        public B progress(PrintStream out) {
            this.progress = out;
            return self();
        }
    }

    /** A framed load: see {@link LoadTest#tcp}. Defaults as the command line's: 10 connections, 10 s, closed loop. */
    public static final class Frames extends Common<Frames> {
        private final LoadSpec.Builder spec;
        private FrameWorkload workload;
        private boolean connectionPerRequest;
        private boolean resume;
        private boolean warmupGiven;
        private boolean requestLimit;

        private Frames(InetSocketAddress target, Protocol protocol) {
            this.spec = LoadSpec.builder(Targets.of(Objects.requireNonNull(target, "target"))).protocol(protocol)
                    .connections(10);
        }

        /** The workload: what each request is and how its reply is checked. Required. */
        public Frames workload(FrameWorkload workload) {
            this.workload = workload;
            return this;
        }

        public Frames connections(int n) {
            spec.connections(n);
            return this;
        }

        /** Requests each connection keeps in flight (closed loop), or at most has in flight at a rate. */
        public Frames pipeline(int n) {
            spec.pipeline(n);
            return this;
        }

        /** Total requests per second, open loop: latency corrected for coordinated omission. */
        public Frames rate(double requestsPerSecond) {
            spec.rate(requestsPerSecond);
            return this;
        }

        /** Requests per second of each connection, open loop (held connections that send rarely). */
        public Frames perConnectionRate(double requestsPerSecond) {
            spec.perConnectionRate(requestsPerSecond);
            return this;
        }

        /** New connections per second while opening them; 0 (the default) opens them all at once. */
        public Frames connectRate(double connectionsPerSecond) {
            spec.connectRate(connectionsPerSecond);
            return this;
        }

        public Frames duration(Duration duration) {
            spec.duration(duration);
            return this;
        }

        /** Load before measuring, not counted (default: 2 s at a rate, none in closed loop, as on the command line). */
        public Frames warmup(Duration warmup) {
            spec.warmup(warmup);
            warmupGiven = true;
            return this;
        }

        /** A reply not back by then is an error (default: 5 s). */
        public Frames timeout(Duration timeout) {
            spec.timeout(timeout);
            return this;
        }

        /**
         * Stops after this many requests rather than at the duration's end; not with a warmup, whose requests would
         * count toward it.
         */
        public Frames requests(long requests) {
            spec.maxRequests(requests);
            this.requestLimit = requests > 0;
            return this;
        }

        public Frames lengthField(LengthField field) {
            spec.lengthField(field);
            return this;
        }

        /** Over TLS (TCP only). */
        public Frames tls(Tls tls) {
            spec.tls(tls);
            return this;
        }

        /** Over the Noise channel (TCP only). */
        public Frames noise(ClientNoiseConfig noise) {
            spec.noise(noise);
            return this;
        }

        /** A connection of its own per request, as netperf's TCP_CRR: its latency runs from the connect. */
        public Frames connectionPerRequest() {
            this.connectionPerRequest = true;
            return this;
        }

        /** With a connection per request over TLS or QUIC: resume earlier sessions rather than a full handshake each. */
        public Frames tlsResume() {
            this.resume = true;
            return this;
        }

        public Frames seed(long seed) {
            spec.seed(seed);
            return this;
        }

        /** Client I/O and its event-loop threads (default: auto, one thread). */
        public Frames io(TransportKind io, int threads) {
            spec.transport(io).ioThreads(threads);
            return this;
        }

        /** Runs the test to its end and returns its result; a bad setting is an {@link IllegalArgumentException}. */
        public LoadResult run() throws InterruptedException {
            Objects.requireNonNull(workload, "workload");
            if (requestLimit && warmupGiven) {
                throw new IllegalArgumentException("requests with a warmup (expected: one of them; the warmup's "
                        + "requests would count toward the limit)");
            }
            if (!warmupGiven) {
                // As the command line: an open loop warms up first, so the JVM's start-up is not in its latency; a
                // run of a set number of requests counts from its first.
                spec.warmup(!requestLimit && spec.build().openLoop() ? Duration.ofSeconds(2) : Duration.ZERO);
            }
            LoadSpec built = spec.build();
            String command = connectionPerRequest ? "crr" : "echo";
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("command", command);
            config.put("target", built.targets().toString());
            config.put("transport", built.protocol().tag());
            config.put("connections", built.connections());
            config.put("workload", workload.getClass().getName());
            RunOptions options = new RunOptions(command, List.of(), report, progress, config);
            Summary summary = connectionPerRequest
                    ? FrameRuns.perRequest(command, built, workload, resume, options)
                    : FrameRuns.held(command, built, workload, options);
            return LoadResult.of(summary, thresholds, report);
        }
    }

    /** An RPC load: see {@link LoadTest#rpc}. Defaults as rpc's: 50 clients, 1 in flight, 200,000 calls. */
    public static final class Rpc extends Common<Rpc> {
        private final InetSocketAddress target;
        private RpcWorkload workload;
        private int clients = 50;
        private int inFlight = 1;
        private long requests = 200_000;
        private long warmup;
        private double rate;
        private Duration timeout = Duration.ofSeconds(10);
        private long seed = 1;
        private TransportKind io = TransportKind.AUTO;
        private int ioThreads = 1;
        private Tls tls;
        private ClientNoiseConfig noise;
        private Duration interval = Duration.ofSeconds(1);

        private Rpc(InetSocketAddress target) {
            this.target = Objects.requireNonNull(target, "target");
        }

        /** The workload: what each call is and how its answer is checked. Required. */
        public Rpc workload(RpcWorkload workload) {
            this.workload = workload;
            return this;
        }

        /** Clients, one connection each. */
        public Rpc clients(int n) {
            this.clients = n;
            return this;
        }

        /** Calls each client keeps waiting, pipelined on its connection. */
        public Rpc inFlight(int n) {
            this.inFlight = n;
            return this;
        }

        /** Calls in all, split evenly over the clients. */
        public Rpc requests(long n) {
            this.requests = n;
            return this;
        }

        /** Calls run first on the same connections, not counted. */
        public Rpc warmup(long calls) {
            this.warmup = calls;
            return this;
        }

        /** Total calls per second, open loop: latency corrected for coordinated omission. */
        public Rpc rate(double callsPerSecond) {
            this.rate = callsPerSecond;
            return this;
        }

        /** Deadline of each call (default: 10 s). */
        public Rpc timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Rpc seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Rpc io(TransportKind io, int threads) {
            this.io = io;
            this.ioThreads = threads;
            return this;
        }

        public Rpc tls(Tls tls) {
            this.tls = tls;
            return this;
        }

        public Rpc noise(ClientNoiseConfig noise) {
            this.noise = noise;
            return this;
        }

        /** Runs the test to its end and returns its result; a bad setting is an {@link IllegalArgumentException}. */
        public LoadResult run() throws InterruptedException {
            Objects.requireNonNull(workload, "workload");
            RpcSpec spec = new RpcSpec(target, clients, requests, warmup, inFlight, rate, timeout, seed, 0, 0, io,
                    ioThreads, tls, noise);
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("command", "rpc");
            config.put("target", target.getHostString() + ":" + target.getPort());
            config.put("clients", clients);
            config.put("workload", workload.getClass().getName());
            RpcSummary summary = RpcRuns.run("rpc", new RpcLoad(spec, workload), interval,
                    new RunOptions("rpc", List.of(), report, progress, config));
            return LoadResult.of(summary, thresholds, report);
        }
    }
}
