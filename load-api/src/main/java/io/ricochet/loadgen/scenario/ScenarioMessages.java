package io.ricochet.loadgen.scenario;

import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.scenario.proto.Noise;
import io.ricochet.loadgen.scenario.proto.Tls;
import io.ricochet.loadgen.scenario.proto.Workload;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker's shard as the typed message the controller sends ({@code ricochet.scenario.Scenario}), and back. The
 * message carries what a worker runs; what only the controller acts on (scrape, thresholds, JSON output, the metrics
 * endpoint) stays behind, as {@link Scenario#shard} leaves it out. Reading checks the version and the size before
 * anything else, and the result is a {@link Scenario}, validated as any other.
 *
 * <pre>{@code
 * byte[] sent = ScenarioMessages.encode(scenario.shard(0, weights)).toByteArray();
 * Scenario received = ScenarioMessages.decode(sent);       // equal to the shard
 * }</pre>
 */
public final class ScenarioMessages {
    /** The largest scenario message a worker takes, and a controller sends: a shard is a few hundred bytes. */
    public static final int MAX_BYTES = 1 << 20;

    private ScenarioMessages() {
    }

    /** The message of {@code s}, a distributable command's shard; a message over {@link #MAX_BYTES} is refused. */
    public static io.ricochet.loadgen.scenario.proto.Scenario encode(Scenario s) {
        if (!s.command().distributable()) {
            throw new IllegalArgumentException("command: " + s.command().label() + " (expected: one a worker runs)");
        }
        io.ricochet.loadgen.scenario.proto.Scenario.Builder m = io.ricochet.loadgen.scenario.proto.Scenario.newBuilder()
                .setVersion(Scenario.VERSION).setCommand(s.command().label())
                .setTarget(s.target() == null ? "" : s.target().toString()).setTransport(s.transport().tag())
                .setLengthField(s.lengthField().width()).setConnections(s.connections()).setConnectRate(s.connectRate())
                .setPipeline(s.pipeline()).setInFlight(s.inFlight()).setRate(s.rate())
                .setPerConnectionRate(s.perConnectionRate())
                .addAllSourceAddresses(s.sourceAddresses().stream().map(InetAddress::getHostAddress).toList())
                .setDurationNanos(s.duration().toNanos()).setWarmupRequests(s.warmupRequests())
                .setRequests(s.requests()).setTimeoutNanos(s.timeout().toNanos())
                .setIntervalNanos(s.interval().toNanos()).setSeed(s.seed()).setWorkload(workload(s.workload()))
                .setTls(tls(s.tls())).setNoise(noise(s.noise())).setIo(s.io().label()).setIoThreads(s.ioThreads())
                .setServerIoThreads(s.serverIoThreads()).setMaxErrorRate(s.maxErrorRate()).setWorker(s.worker())
                .setFirstConnection(s.firstConnection());
        if (s.warmup() != null) {
            m.setWarmupNanos(s.warmup().toNanos());
        }
        if (s.stages() != null) {
            m.setStages(s.stages().format());
        }
        if (s.keyBits() != null) {
            m.setKeyBits(s.keyBits());
        }
        if (s.report() != null) {
            m.setReport(s.report().toString());
        }
        io.ricochet.loadgen.scenario.proto.Scenario message = m.build();
        if (message.getSerializedSize() > MAX_BYTES) {
            throw new IllegalArgumentException("scenario: " + message.getSerializedSize() + " bytes as a message "
                    + "(expected: at most " + MAX_BYTES + "; a workload's data inline? give it as @FILE)");
        }
        return message;
    }

    /** The scenario {@code bytes} hold: over {@link #MAX_BYTES}, unreadable, or of another version, refused by name. */
    public static Scenario decode(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("scenario: " + bytes.length + " bytes (expected: at most " + MAX_BYTES + ")");
        }
        try {
            return decode(io.ricochet.loadgen.scenario.proto.Scenario.parseFrom(bytes));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("scenario: not a scenario message (" + e.getMessage() + ")");
        }
    }

    /** The scenario {@code m} holds; of another version, or not valid, refused by name. */
    public static Scenario decode(io.ricochet.loadgen.scenario.proto.Scenario m) {
        if (m.getVersion() != Scenario.VERSION) {
            throw new IllegalArgumentException("scenario version: " + m.getVersion() + " (expected: " + Scenario.VERSION
                    + ", the version this worker runs; controller and workers must be of one Ricochet version)");
        }
        Command command = Command.parse(m.getCommand());
        if (!command.distributable()) {
            throw new IllegalArgumentException("command: " + command.label() + " (expected: one a worker runs)");
        }
        Scenario.Builder b = Scenario.builder(command)
                .target(m.getTarget().isEmpty() ? null : Targets.parse(m.getTarget()))
                .transport(Values.protocol(m.getTransport())).lengthField(LengthField.ofWidth(m.getLengthField()))
                .connections(m.getConnections()).connectRate(m.getConnectRate()).pipeline(m.getPipeline())
                .inFlight(m.getInFlight()).rate(m.getRate()).perConnectionRate(m.getPerConnectionRate())
                .sourceAddresses(addresses(m.getSourceAddressesList()))
                .duration(Duration.ofNanos(m.getDurationNanos()))
                .warmup(m.hasWarmupNanos() ? Duration.ofNanos(m.getWarmupNanos()) : null)
                .warmupRequests(m.getWarmupRequests()).requests(m.getRequests())
                .timeout(Duration.ofNanos(m.getTimeoutNanos())).interval(Duration.ofNanos(m.getIntervalNanos()))
                .seed(m.getSeed()).keyBits(m.hasKeyBits() ? m.getKeyBits() : null).workload(workload(m.getWorkload()))
                .tls(tls(m.getTls())).noise(noise(m.getNoise())).io(TransportKind.fromLabel(m.getIo()))
                .ioThreads(m.getIoThreads()).serverIoThreads(m.getServerIoThreads())
                .maxErrorRate(m.getMaxErrorRate()).report(m.hasReport() ? Path.of(m.getReport()) : null)
                .worker(m.getWorker()).firstConnection(m.getFirstConnection())
                .stages(m.hasStages() ? Values.stages(m.getStages()) : null);
        return b.build();
    }

    private static Workload workload(WorkloadSettings w) {
        Workload.Builder m = Workload.newBuilder().addAllJars(w.jars().stream().map(Path::toString).toList())
                .putAllParams(w.params());
        if (w.name() != null) {
            m.setName(w.name());
        }
        if (w.payload() != null) {
            m.setPayload(w.payload());
        }
        if (w.expect() != null) {
            m.setExpect(w.expect());
        }
        if (w.size() != null) {
            m.setSizeMin(w.size().min()).setSizeMax(w.size().max());
        }
        if (w.proto() != null) {
            m.setProto(w.proto().toString());
        }
        if (w.method() != null) {
            m.setMethod(w.method());
        }
        if (w.requestType() != null) {
            m.setRequestType(w.requestType());
        }
        if (w.responseType() != null) {
            m.setResponseType(w.responseType());
        }
        if (w.data() != null) {
            m.setData(w.data());
        }
        if (w.expectStatus() != null) {
            m.setExpectStatus(w.expectStatus());
        }
        return m.build();
    }

    private static WorkloadSettings workload(Workload m) {
        return new WorkloadSettings(m.hasName() ? m.getName() : null, m.getJarsList().stream().map(Path::of).toList(),
                m.getParamsMap(), m.hasPayload() ? m.getPayload() : null, m.hasExpect() ? m.getExpect() : null,
                m.hasSizeMin() ? new SizeRange(m.getSizeMin(), m.getSizeMax()) : null,
                m.hasProto() ? Path.of(m.getProto()) : null, m.hasMethod() ? m.getMethod() : null,
                m.hasRequestType() ? m.getRequestType() : null, m.hasResponseType() ? m.getResponseType() : null,
                m.hasData() ? m.getData() : null, m.hasExpectStatus() ? m.getExpectStatus() : null);
    }

    private static Tls tls(TlsSettings t) {
        Tls.Builder m = Tls.newBuilder().setEnabled(t.enabled()).setInsecure(t.insecure()).setProvider(t.provider())
                .setResume(t.resume()).setEarlyData(t.earlyData());
        if (t.ca() != null) {
            m.setCa(t.ca().toString());
        }
        if (t.clientCert() != null) {
            m.setClientCert(t.clientCert().toString());
        }
        if (t.clientKey() != null) {
            m.setClientKey(t.clientKey().toString());
        }
        return m.build();
    }

    private static TlsSettings tls(Tls m) {
        return new TlsSettings(m.getEnabled(), m.hasCa() ? Path.of(m.getCa()) : null, m.getInsecure(),
                m.hasClientCert() ? Path.of(m.getClientCert()) : null,
                m.hasClientKey() ? Path.of(m.getClientKey()) : null, m.getProvider().isEmpty() ? null : m.getProvider(),
                m.getResume(), m.getEarlyData());
    }

    private static Noise noise(NoiseSettings n) {
        Noise.Builder m = Noise.newBuilder();
        if (n.serverKey() != null) {
            m.setServerKey(n.serverKey());
        }
        if (n.mode() != null) {
            m.setMode(n.mode());
        }
        return m.build();
    }

    private static NoiseSettings noise(Noise m) {
        return new NoiseSettings(m.hasServerKey() ? m.getServerKey() : null, m.hasMode() ? m.getMode() : null);
    }

    private static List<InetAddress> addresses(List<String> texts) {
        List<InetAddress> out = new ArrayList<>();
        for (String text : texts) {
            try {
                out.add(InetAddress.getByName(text));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("source_addresses: " + text + " (" + e.getMessage() + ")");
            }
        }
        return out;
    }
}
