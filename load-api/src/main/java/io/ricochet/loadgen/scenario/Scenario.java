package io.ricochet.loadgen.scenario;

import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.transport.Protocol;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One load test as a value: everything a run needs, whichever produced it (a command's flags, a scenario file,
 * {@code LoadTest}'s builders) and wherever it runs (alone, on local workers, as a Kubernetes Job). It is validated
 * when built, in one place ({@link ScenarioRules}), and its messages name the key ({@code connections: 0 (expected:
 * > 0)}); the command line names the flag instead. {@link #shard} gives a worker's part of it.
 *
 * <pre>{@code
 * Scenario s = Scenario.builder(Command.ECHO)
 *         .target(Targets.parse("127.0.0.1:7000"))
 *         .connections(100).rate(20_000).duration(Duration.ofSeconds(30))
 *         .threshold(Threshold.parse("p99<5ms"))
 *         .build();
 * Scenario worker1 = s.shard(1, new double[] {1, 1, 1, 1});   // a quarter of the connections and of the rate
 * String yaml = ScenarioFiles.yaml(s);                        // what --print-scenario prints
 * }</pre>
 *
 * <p>Longer than 300 lines: its builder has a setter for every setting, as the scenario file has a key for each.
 *
 * @param command           what runs
 * @param target            the servers, round-robin over the connections; null for the command line's embedded server
 * @param transport         TCP, UDP or QUIC (framed commands); the RPC commands run over TCP
 * @param lengthField       the frame's length field, 2 or 4 bytes
 * @param connections       connections; crr's concurrency, rpc's clients, register's pairs; sweep's and ramp's
 * @param connectRate       new connections per second while opening them; 0 opens them all at once
 * @param pipeline          requests in flight per connection (framed commands)
 * @param inFlight          calls each RPC client keeps waiting
 * @param rate              total requests per second, open loop; 0 for closed loop
 * @param perConnectionRate requests per second on each connection, open loop (held connections)
 * @param stages            the load's shape over time, or null for a constant one: a rate schedule (open loop, in
 *                          place of {@code rate}) or a connection schedule (in place of {@code connections} and
 *                          {@code connectRate}); its total is the duration
 * @param sourceAddresses   local addresses bound round-robin; empty for the kernel's choice
 * @param duration          the measured time
 * @param warmup            load before measuring, not counted; null for the loop's default (2 s open, 0 closed)
 * @param warmupRequests    RPC calls (register: cycles) run first, not counted
 * @param requests          stop after this many requests (0: at the duration's end); rpc's calls, register's cycles
 * @param timeout           a reply not back by then is an error (RPC: each call's deadline)
 * @param interval          the progress and report interval
 * @param seed              the seed of the bodies and of the workload's random sources
 * @param keyBits           AES-GCM key length of TLS or Noise, 128 or 256; null for the default
 * @param workload          what the requests are and how replies are checked
 * @param tls               the client's TLS
 * @param noise             the client's Noise channel
 * @param io                client I/O: auto, io_uring, epoll or nio
 * @param ioThreads         client event loops; 0 for one per core
 * @param serverIoThreads   event loops of the command line's embedded server
 * @param thresholds        pass/fail conditions on the result
 * @param maxErrorRate      errors tolerated, as a share of requests, before the run fails
 * @param report            the report directory, or null
 * @param json              print the summary as JSON instead of the table
 * @param scrape            servers' Prometheus /metrics URLs sampled every interval
 * @param metricsPort       serve the generator's own /metrics on this port (0: ephemeral), or null for none
 * @param metricsHost       the address {@code metricsPort} binds
 * @param ramp              ramp's search; null for another command
 * @param sweep             sweep's steps; null for another command
 * @param udpStream         udp-stream's sending and search; null for another command
 * @param worker            this scenario's worker index under a controller (0 alone), which workloads see
 * @param firstConnection   the run-wide number of its first connection (a worker's continue the previous worker's)
 */
public record Scenario(
        Command command,
        Targets target,
        Protocol transport,
        LengthField lengthField,
        int connections,
        double connectRate,
        int pipeline,
        int inFlight,
        double rate,
        double perConnectionRate,
        Stages stages,
        List<InetAddress> sourceAddresses,
        Duration duration,
        Duration warmup,
        long warmupRequests,
        long requests,
        Duration timeout,
        Duration interval,
        long seed,
        Integer keyBits,
        WorkloadSettings workload,
        TlsSettings tls,
        NoiseSettings noise,
        TransportKind io,
        int ioThreads,
        int serverIoThreads,
        List<Threshold> thresholds,
        double maxErrorRate,
        Path report,
        boolean json,
        List<URI> scrape,
        Integer metricsPort,
        String metricsHost,
        RampSettings ramp,
        SweepSettings sweep,
        UdpStreamSettings udpStream,
        int worker,
        long firstConnection) {

    /** The scenario format this build reads and writes; a file or message of another is refused by name. */
    public static final int VERSION = 1;
    /** The warmup an open loop gets unless told: wrk2's calibration, for a JVM's start-up and JIT compilation. */
    public static final Duration OPEN_LOOP_WARMUP = Duration.ofSeconds(2);

    /** Every setting; checked by {@link ScenarioRules} once all are set, so no scenario that cannot run exists. */
    public Scenario(Command command, Targets target, Protocol transport, LengthField lengthField, int connections, double
            connectRate, int pipeline, int inFlight, double rate, double perConnectionRate, Stages stages,
            List<InetAddress> sourceAddresses, Duration duration, Duration warmup, long warmupRequests, long requests, Duration timeout,
            Duration interval, long seed, Integer keyBits, WorkloadSettings workload, TlsSettings tls, NoiseSettings
            noise, TransportKind io, int ioThreads, int serverIoThreads, List<Threshold> thresholds, double
            maxErrorRate, Path report, boolean json, List<URI> scrape, Integer metricsPort, String metricsHost,
            RampSettings ramp, SweepSettings sweep, UdpStreamSettings udpStream, int worker, long firstConnection) {
        this.command = command;
        this.target = target;
        this.transport = transport;
        this.lengthField = lengthField;
        this.connections = connections;
        this.connectRate = connectRate;
        this.pipeline = pipeline;
        this.inFlight = inFlight;
        this.rate = rate;
        this.perConnectionRate = perConnectionRate;
        this.stages = stages;
        this.sourceAddresses = sourceAddresses == null ? List.of() : List.copyOf(sourceAddresses);
        this.duration = duration;
        this.warmup = warmup;
        this.warmupRequests = warmupRequests;
        this.requests = requests;
        this.timeout = timeout;
        this.interval = interval;
        this.seed = seed;
        this.keyBits = keyBits;
        this.workload = workload;
        this.tls = tls == null ? TlsSettings.OFF : tls;
        this.noise = noise == null ? NoiseSettings.OFF : noise;
        this.io = io;
        this.ioThreads = ioThreads;
        this.serverIoThreads = serverIoThreads;
        this.thresholds = thresholds == null ? List.of() : List.copyOf(thresholds);
        this.maxErrorRate = maxErrorRate;
        this.report = report;
        this.json = json;
        this.scrape = scrape == null ? List.of() : List.copyOf(scrape);
        this.metricsPort = metricsPort;
        this.metricsHost = metricsHost;
        this.ramp = ramp;
        this.sweep = sweep;
        this.udpStream = udpStream;
        this.worker = worker;
        this.firstConnection = firstConnection;
        ScenarioRules.check(this);
    }

    /** A builder with {@code command}'s defaults, as its command line has them. */
    public static Builder builder(Command command) {
        return Defaults.of(command);
    }

    /** A builder holding this scenario's settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Worker {@code index}'s part of this scenario, over workers weighted {@code weights}: see {@link Sharding}. */
    public Scenario shard(int index, double[] weights) {
        return Sharding.shard(this, index, weights);
    }

    /** Open loop: a total or per-connection rate, or a rate schedule, paces the requests. */
    public boolean openLoop() {
        return rate > 0 || perConnectionRate > 0 || rateStages();
    }

    /** Whether stages set the rate over time. */
    public boolean rateStages() {
        return stages != null && stages.kind() == Stages.Kind.RATE;
    }

    /** Whether stages set the connections over time. */
    public boolean connectionStages() {
        return stages != null && stages.kind() == Stages.Kind.CONNECTIONS;
    }

    /**
     * The warmup: as given, or 2 s in open loop without a request limit, else none. Stages have none: they start from
     * the load's start, and their first stage is the ramp a warmup would be.
     */
    public Duration effectiveWarmup() {
        if (warmup != null) {
            return warmup;
        }
        return openLoop() && requests == 0 && stages == null ? OPEN_LOOP_WARMUP : Duration.ZERO;
    }

    /**
     * Whether the command is several runs (ramp's and sweep's steps, a UDP search's trials), whose thresholds are
     * judged on its steps at the end, not live.
     */
    public boolean severalRuns() {
        return command == Command.RAMP || command == Command.SWEEP || (udpStream != null && udpStream.search());
    }

    /** The body size: the workload's, or the command's default (64 B; 32 B for RPC; 1 B a datagram). */
    public SizeRange bodySize() {
        return workload.size() != null ? workload.size() : Defaults.bodySize(command);
    }

    /** The largest body one request may carry: what the length field takes, or over UDP one datagram. */
    public int largestBody() {
        return transport == Protocol.UDP ? lengthField.largestUdpBody() : lengthField.largestMaxFrame();
    }

    /** Whether connections start with a handshake that the run times (TLS or Noise over TCP). */
    public boolean secured() {
        return tls.enabled() || noise.enabled();
    }

    private static <T> T implied(String key, boolean given, T value, T fromStages,
            java.util.function.Function<T, String> format) {
        if (given && !value.equals(fromStages)) {
            throw new io.ricochet.config.InvalidValueException(key, format.apply(value), "none with stages, or theirs, "
                    + format.apply(fromStages));
        }
        return fromStages;
    }

    /** Builds a {@link Scenario}; every setter takes what its key takes, and {@link #build} checks them all. */
    public static final class Builder {
        Command command;
        Targets target;
        Protocol transport;
        LengthField lengthField;
        int connections;
        double connectRate;
        int pipeline;
        int inFlight;
        double rate;
        double perConnectionRate;
        Stages stages;
        /** Whether a setter gave these, so that stages, which imply them, can tell a conflict from a default. */
        private boolean durationGiven;
        private boolean connectionsGiven;
        private boolean connectRateGiven;
        List<InetAddress> sourceAddresses;
        Duration duration;
        Duration warmup;
        long warmupRequests;
        long requests;
        Duration timeout;
        Duration interval;
        long seed;
        Integer keyBits;
        WorkloadSettings workload;
        TlsSettings tls;
        NoiseSettings noise;
        TransportKind io;
        int ioThreads;
        int serverIoThreads;
        List<Threshold> thresholds;
        double maxErrorRate;
        Path report;
        boolean json;
        List<URI> scrape;
        Integer metricsPort;
        String metricsHost;
        RampSettings ramp;
        SweepSettings sweep;
        UdpStreamSettings udpStream;
        int worker;
        long firstConnection;

        Builder() {
        }

        private Builder(Scenario s) {
            command = s.command;
            target = s.target;
            transport = s.transport;
            lengthField = s.lengthField;
            connections = s.connections;
            connectRate = s.connectRate;
            pipeline = s.pipeline;
            inFlight = s.inFlight;
            rate = s.rate;
            perConnectionRate = s.perConnectionRate;
            stages = s.stages;
            sourceAddresses = s.sourceAddresses;
            duration = s.duration;
            warmup = s.warmup;
            warmupRequests = s.warmupRequests;
            requests = s.requests;
            timeout = s.timeout;
            interval = s.interval;
            seed = s.seed;
            keyBits = s.keyBits;
            workload = s.workload;
            tls = s.tls;
            noise = s.noise;
            io = s.io;
            ioThreads = s.ioThreads;
            serverIoThreads = s.serverIoThreads;
            thresholds = s.thresholds;
            maxErrorRate = s.maxErrorRate;
            report = s.report;
            json = s.json;
            scrape = s.scrape;
            metricsPort = s.metricsPort;
            metricsHost = s.metricsHost;
            ramp = s.ramp;
            sweep = s.sweep;
            udpStream = s.udpStream;
            worker = s.worker;
            firstConnection = s.firstConnection;
        }

        /** The command this builder's defaults are for. */
        public Command command() {
            return command;
        }

        /** Another command, every setting kept as it is (so not that command's defaults): echo's to crr's, say. */
        public Builder command(Command v) {
            command = java.util.Objects.requireNonNull(v, "command");
            return this;
        }

        /** The workload settings so far, for a caller that changes one of them. */
        public WorkloadSettings workload() {
            return workload;
        }

        /** The TLS settings so far. */
        public TlsSettings tls() {
            return tls;
        }

        /** The Noise settings so far. */
        public NoiseSettings noise() {
            return noise;
        }

        /** ramp's settings so far, or null for another command. */
        public RampSettings ramp() {
            return ramp;
        }

        /** sweep's settings so far, or null for another command. */
        public SweepSettings sweep() {
            return sweep;
        }

        /** udp-stream's settings so far, or null for another command. */
        public UdpStreamSettings udpStream() {
            return udpStream;
        }

        public Builder target(Targets v) { target = v; return this; }
        public Builder transport(Protocol v) { transport = v; return this; }
        public Builder lengthField(LengthField v) { lengthField = v; return this; }
        public Builder connections(int v) { connections = v; connectionsGiven = true; return this; }
        public Builder connectRate(double v) { connectRate = v; connectRateGiven = true; return this; }
        public Builder pipeline(int v) { pipeline = v; return this; }
        public Builder inFlight(int v) { inFlight = v; return this; }
        public Builder rate(double v) { rate = v; return this; }
        public Builder perConnectionRate(double v) { perConnectionRate = v; return this; }

        /**
         * The load's shape over time ({@code Values.stages("0:10s,20k:30s")}), or null for a constant one. The run
         * lasts the stages' total, and a connection schedule holds at most its peak: a duration or connections given
         * besides must match them.
         */
        public Builder stages(Stages v) { stages = v; return this; }
        public Builder sourceAddresses(List<InetAddress> v) { sourceAddresses = v; return this; }
        public Builder duration(Duration v) { duration = v; durationGiven = true; return this; }
        public Builder warmup(Duration v) { warmup = v; return this; }
        public Builder warmupRequests(long v) { warmupRequests = v; return this; }
        public Builder requests(long v) { requests = v; return this; }
        public Builder timeout(Duration v) { timeout = v; return this; }
        public Builder interval(Duration v) { interval = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder keyBits(Integer v) { keyBits = v; return this; }
        public Builder workload(WorkloadSettings v) { workload = v; return this; }
        public Builder tls(TlsSettings v) { tls = v; return this; }
        public Builder noise(NoiseSettings v) { noise = v; return this; }
        public Builder io(TransportKind v) { io = v; return this; }
        public Builder ioThreads(int v) { ioThreads = v; return this; }
        public Builder serverIoThreads(int v) { serverIoThreads = v; return this; }
        public Builder thresholds(List<Threshold> v) { thresholds = List.copyOf(v); return this; }
        public Builder maxErrorRate(double v) { maxErrorRate = v; return this; }
        public Builder report(Path v) { report = v; return this; }
        public Builder json(boolean v) { json = v; return this; }
        public Builder scrape(List<URI> v) { scrape = v; return this; }
        public Builder metricsPort(Integer v) { metricsPort = v; return this; }
        public Builder metricsHost(String v) { metricsHost = v; return this; }
        public Builder ramp(RampSettings v) { ramp = v; return this; }
        public Builder sweep(SweepSettings v) { sweep = v; return this; }
        public Builder udpStream(UdpStreamSettings v) { udpStream = v; return this; }
        public Builder worker(int v) { worker = v; return this; }
        public Builder firstConnection(long v) { firstConnection = v; return this; }

        /** Adds a pass/fail condition, in {@code --threshold}'s syntax ({@code p99<2ms}, {@code errors==0}). */
        public Builder threshold(Threshold v) {
            List<Threshold> all = new java.util.ArrayList<>(thresholds);
            all.add(v);
            thresholds = List.copyOf(all);
            return this;
        }

        /** The scenario; a setting it cannot run with is an {@link IllegalArgumentException} naming its key. */
        public Scenario build() {
            Duration duration = this.duration;
            int connections = this.connections;
            double connectRate = this.connectRate;
            if (stages != null) {
                duration = implied("duration", durationGiven, duration, stages.total(), Durations::format);
                if (stages.kind() == Stages.Kind.CONNECTIONS) {
                    connections = implied("connections", connectionsGiven, connections, (int) stages.peak(),
                            String::valueOf);
                    // The stages are the connect ramp: a command's default one (massive's) gives way to them.
                    connectRate = connectRateGiven ? connectRate : 0;
                }
            }
            return new Scenario(command, target, transport, lengthField, connections, connectRate, pipeline, inFlight,
                    rate, perConnectionRate, stages, sourceAddresses, duration, warmup, warmupRequests, requests, timeout,
                    interval, seed, keyBits, workload, tls, noise, io, ioThreads, serverIoThreads, thresholds,
                    maxErrorRate, report, json, scrape, metricsPort, metricsHost, ramp, sweep, udpStream, worker,
                    firstConnection);
        }
    }
}
