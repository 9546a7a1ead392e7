package io.ricochet.loadgen.engine;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.notNegative;
import static io.ricochet.config.Checks.notNull;
import static io.ricochet.config.Checks.positive;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.client.FrameClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * How one framed load runs, everything but what its requests are (its workload's): where it connects, over what, how
 * many connections and how fast. Open loop when {@code rate} (total requests/s) or {@code perConnectionRate} is set;
 * closed loop otherwise, each connection keeping {@code pipeline} requests in flight.
 *
 * @param targets     the servers, dealt round-robin over the connections
 * @param sourceAddresses local addresses to connect from (empty: the kernel's choice), dealt so that every
 *                    (source, server) pair carries an equal share
 * @param firstConnection the run-wide number of this load's first connection (a controller's worker's share starts
 *                    where the previous worker's ends), so targets and sources are dealt evenly over the whole run
 * @param maxRequests stop after this many requests were sent (0: run for {@code duration})
 * @param worker      this process's worker index under a controller (0 alone), which workloads see
 * @param tls         the client's TLS for TCP connections, or null for plaintext
 * @param noise       the client's Noise channel for TCP connections, or null; not with {@code tls}
 * @param quic        the client's TLS for QUIC connections: with protocol QUIC only, and needed to connect
 * @param stages      the load's shape over time, or null: a rate schedule (open loop, without {@code rate} or
 *                    {@code perConnectionRate}) or a connection schedule ({@code connections} its peak, no connect
 *                    rate); its total is {@code duration}
 */
public record LoadSpec(
        Targets targets,
        Protocol protocol,
        int connections,
        double connectRate,
        int pipeline,
        double rate,
        double perConnectionRate,
        LengthField lengthField,
        Duration duration,
        Duration warmup,
        Duration timeout,
        List<InetAddress> sourceAddresses,
        long firstConnection,
        long seed,
        long maxRequests,
        int worker,
        Duration interval,
        int ioThreads,
        TransportKind transport,
        Tls tls,
        ClientNoiseConfig noise,
        QuicSslContext quic,
        Stages stages) {

    public LoadSpec {
        notNull("targets", targets);
        notNull("protocol", protocol);
        positive("connections", connections);
        inRange("pipeline", pipeline, 1, 1 << 16);
        notNegative("connectRate", connectRate);
        notNegative("rate", rate);
        notNegative("perConnectionRate", perConnectionRate);
        if (rate > 0 && perConnectionRate > 0) {
            throw new InvalidValueException("perConnectionRate", Double.toString(perConnectionRate),
                    "0 with a total rate");
        }
        notNull("lengthField", lengthField);
        positive("duration", duration);
        notNull("warmup", warmup);
        positive("timeout", timeout);
        sourceAddresses = List.copyOf(sourceAddresses);
        inRange("firstConnection", firstConnection, 0, Long.MAX_VALUE / 2);
        inRange("maxRequests", maxRequests, 0, Long.MAX_VALUE);
        inRange("worker", worker, 0, Integer.MAX_VALUE);
        positive("interval", interval);
        inRange("ioThreads", ioThreads, 0, 1024);
        if (tls != null && protocol == Protocol.UDP) {
            throw new IllegalArgumentException("tls: with protocol udp (expected: tcp)");
        }
        if (noise != null && (protocol != Protocol.TCP || tls != null)) {
            throw new IllegalArgumentException("noise: with " + (tls != null ? "tls" : "protocol " + protocol.tag())
                    + " (expected: tcp, alone)");
        }
        if (tls != null && protocol == Protocol.QUIC) {
            throw new IllegalArgumentException("tls: with protocol quic (expected: quic's own TLS)");
        }
        if (stages != null) {
            stages(stages, rate, perConnectionRate, connections, connectRate, duration);
        }
        if (quic != null && protocol != Protocol.QUIC) {
            throw new IllegalArgumentException("quic: a QUIC TLS context with protocol " + protocol.tag()
                    + " (expected: quic)");
        }
    }

    private static void stages(Stages stages, double rate, double perConnectionRate, int connections,
            double connectRate, Duration duration) {
        if (!stages.total().equals(duration)) {
            throw new InvalidValueException("duration", duration.toString(), "the stages' total, " + stages.total());
        }
        if (rate > 0 || (stages.kind() == Stages.Kind.RATE && perConnectionRate > 0)) {
            throw new InvalidValueException("rate", Double.toString(rate > 0 ? rate : perConnectionRate),
                    "0 with stages, which set it");
        }
        if (stages.kind() == Stages.Kind.CONNECTIONS && (connections != (int) stages.peak() || connectRate > 0)) {
            throw new InvalidValueException("connections", connections + " at " + connectRate + "/s",
                    "the stages' peak, " + (int) stages.peak() + ", opened as they say");
        }
    }

    /** The client this load connects with: its I/O, framing and connect timeout, over TLS or Noise if asked. */
    FrameClient newClient() {
        if (protocol == Protocol.QUIC && quic == null) {
            // Checked here, not at construction: a spec is validated before its target (and so its TLS) exists.
            throw new IllegalStateException("quic: protocol quic without its TLS context");
        }
        FrameClient.Builder client = FrameClient.builder().transport(transport, ioThreads).lengthField(lengthField)
                .maxFrame(lengthField.largestMaxFrame()).connectTimeout(timeout);
        if (tls != null) {
            client.tls(tls);
        } else if (noise != null) {
            client.noise(noise);
        } else if (quic != null) {
            client.quic(quic);
        }
        return client.build();
    }

    /** Whether each connection begins with a handshake (TLS or Noise), timed on its own. */
    public boolean handshakes() {
        return tls != null || noise != null;
    }

    /**
     * The server of connection {@code id}: round-robin over the targets, counted from {@code firstConnection} so the
     * workers of one run, each numbering its own from 0, continue one another's rounds.
     */
    public InetSocketAddress target(long id) {
        return targets.forConnection(firstConnection + id);
    }

    /**
     * The local address connection {@code id} binds (port chosen by the kernel), or null for the kernel's choice.
     * Consecutive connections go to each target in turn, and each round of targets to the next source, so every
     * (source, target) pair carries an equal share. A bound socket takes a port of its source address whichever the
     * target, so each address holds one ephemeral range of connections in all.
     */
    public InetSocketAddress source(long id) {
        return sourceAddresses.isEmpty() ? null : new InetSocketAddress(
                sourceAddresses.get((int) ((firstConnection + id) / targets.size() % sourceAddresses.size())), 0);
    }

    public boolean openLoop() {
        return rate > 0 || perConnectionRate > 0 || rateStages();
    }

    /** Whether stages set the rate over time. */
    public boolean rateStages() {
        return stages != null && stages.kind() == Stages.Kind.RATE;
    }

    /** Whether stages set the connections held over time. */
    public boolean connectionStages() {
        return stages != null && stages.kind() == Stages.Kind.CONNECTIONS;
    }

    /** Requests per second each connection sends at a constant rate in open loop; 0 in closed loop or under a rate schedule. */
    public double rateOfOneConnection() {
        return rate > 0 ? rate / connections : perConnectionRate;
    }

    /** The largest request body a frame of this load may carry: the length field's, or over UDP one datagram's. */
    public int largestBody() {
        return protocol == Protocol.UDP ? lengthField.largestUdpBody() : lengthField.largestMaxFrame();
    }

    /** UDP keeps one request in flight per socket so a lost datagram is matched by its timeout alone. */
    public int effectivePipeline() {
        return protocol == Protocol.UDP ? 1 : pipeline;
    }

    public static Builder builder(InetSocketAddress target) {
        return new Builder(target == null ? null : Targets.of(target));
    }

    public static Builder builder(Targets targets) {
        return new Builder(targets);
    }

    public Builder toBuilder() {
        Builder b = new Builder(targets);
        b.protocol = protocol;
        b.connections = connections;
        b.connectRate = connectRate;
        b.pipeline = pipeline;
        b.rate = rate;
        b.perConnectionRate = perConnectionRate;
        b.lengthField = lengthField;
        b.duration = duration;
        b.warmup = warmup;
        b.timeout = timeout;
        b.sourceAddresses = sourceAddresses;
        b.firstConnection = firstConnection;
        b.seed = seed;
        b.maxRequests = maxRequests;
        b.worker = worker;
        b.interval = interval;
        b.ioThreads = ioThreads;
        b.transport = transport;
        b.tls = tls;
        b.noise = noise;
        b.quic = quic;
        b.stages = stages;
        return b;
    }

    public static final class Builder {
        private Targets targets;
        private Protocol protocol = Protocol.TCP;
        private int connections = 1;
        private double connectRate;
        private int pipeline = 1;
        private double rate;
        private double perConnectionRate;
        private LengthField lengthField = LengthField.TWO;
        private Duration duration = Duration.ofSeconds(10);
        private Duration warmup = Duration.ZERO;
        private Duration timeout = Duration.ofSeconds(5);
        private List<InetAddress> sourceAddresses = List.of();
        private long firstConnection;
        private long seed = 1;
        private long maxRequests;
        private int worker;
        private Duration interval = Duration.ofSeconds(1);
        private int ioThreads = 1;
        private TransportKind transport = TransportKind.AUTO;
        private Tls tls;
        private ClientNoiseConfig noise;
        private QuicSslContext quic;
        private Stages stages;

        private Builder(Targets targets) {
            this.targets = targets;
        }

        public Builder target(InetSocketAddress v) { targets = Targets.of(v); return this; }
        public Builder targets(Targets v) { targets = v; return this; }
        public Builder protocol(Protocol v) { protocol = v; return this; }
        public Builder connections(int v) { connections = v; return this; }
        public Builder connectRate(double v) { connectRate = v; return this; }
        public Builder pipeline(int v) { pipeline = v; return this; }
        public Builder rate(double v) { rate = v; return this; }
        public Builder perConnectionRate(double v) { perConnectionRate = v; return this; }
        public Builder lengthField(LengthField v) { lengthField = v; return this; }
        public Builder duration(Duration v) { duration = v; return this; }
        public Builder warmup(Duration v) { warmup = v; return this; }
        public Builder timeout(Duration v) { timeout = v; return this; }
        public Builder sourceAddresses(List<InetAddress> v) { sourceAddresses = v; return this; }
        public Builder firstConnection(long v) { firstConnection = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder maxRequests(long v) { maxRequests = v; return this; }
        public Builder worker(int v) { worker = v; return this; }
        public Builder interval(Duration v) { interval = v; return this; }
        public Builder ioThreads(int v) { ioThreads = v; return this; }
        public Builder transport(TransportKind v) { transport = v; return this; }
        public Builder tls(Tls v) { tls = v; return this; }
        public Builder noise(ClientNoiseConfig v) { noise = v; return this; }
        public Builder quic(QuicSslContext v) { quic = v; return this; }
        public Builder stages(Stages v) { stages = v; return this; }

        public LoadSpec build() {
            return new LoadSpec(targets, protocol, connections, connectRate, pipeline, rate, perConnectionRate,
                    lengthField, duration, warmup, timeout, sourceAddresses, firstConnection, seed, maxRequests, worker,
                    interval, ioThreads, transport, tls, noise, quic, stages);
        }
    }
}
