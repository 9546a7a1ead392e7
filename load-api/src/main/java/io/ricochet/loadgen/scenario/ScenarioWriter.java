package io.ricochet.loadgen.scenario;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.report.threshold.Threshold;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.function.Function;

/**
 * A {@link Scenario} as a scenario file's tree: every key its command takes, in {@link ScenarioKeys}' order, each
 * value written as its flag takes it ({@code 10s}, {@code 20000}, {@code 1024..4096}); unset values (no target, the
 * loop's default warmup) are left out, so that reading the tree back gives an equal scenario.
 */
final class ScenarioWriter {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Scenario s;
    /** Whether to write the keys the command does not take too: to find settings it would ignore. */
    private final boolean everyKey;
    private final ObjectNode root = NODES.objectNode();

    private ScenarioWriter(Scenario s, boolean everyKey) {
        this.s = s;
        this.everyKey = everyKey;
    }

    static ObjectNode tree(Scenario s) {
        return new ScenarioWriter(s, false).write();
    }

    /**
     * The keys {@code s}'s command does not take that hold something other than {@code defaults} holds, each as
     * {@code key: value}: settings a builder made that the run would ignore (a rate given to crr, say).
     */
    static java.util.List<String> ignored(Scenario s, Scenario defaults) {
        ObjectNode given = new ScenarioWriter(s, true).write();
        ObjectNode usual = new ScenarioWriter(defaults, true).write();
        java.util.List<String> out = new java.util.ArrayList<>();
        given.fields().forEachRemaining(e -> {
            if (!ScenarioKeys.SECTIONS.contains(e.getKey()) && !ScenarioKeys.appliesTo(e.getKey(), s.command())
                    && !e.getValue().equals(usual.get(e.getKey()))) {
                out.add(e.getKey() + ": " + e.getValue().asText());
            }
        });
        return out;
    }

    private ObjectNode write() {
        root.put("version", Scenario.VERSION);
        root.put("command", s.command().label());
        if (s.target() != null) {
            put("target", s.target().toString());
        }
        put("transport", s.transport().tag());
        put("length_field", s.lengthField().width());
        // What stages imply is left to them, so that a printed scenario takes other stages as it is.
        if (!s.connectionStages()) {
            put("connections", s.connections());
            put("connect_rate", s.connectRate());
        }
        put("per_connection_rate", s.perConnectionRate());
        put("pipeline", s.pipeline());
        put("in_flight", s.inFlight());
        put("rate", s.rate());
        if (s.stages() != null) {
            list("stages", s.stages().items(), item -> item);
        }
        if (!s.sourceAddresses().isEmpty()) {
            list("source_addresses", s.sourceAddresses(), InetAddress::getHostAddress);
        }
        if (s.stages() == null) {
            put("duration", s.duration());
        }
        put("warmup", s.warmup());
        put("warmup_requests", s.warmupRequests());
        put("requests", s.requests());
        put("timeout", s.timeout());
        put("interval", s.interval());
        put("seed", s.seed());
        put("key_bits", s.keyBits());
        workload(s.workload());
        tls(s.tls());
        if (s.noise().enabled()) {
            put("noise.server_key", s.noise().serverKey());
            put("noise.mode", s.noise().mode());
        }
        put("io", s.io().label());
        put("io_threads", s.ioThreads());
        put("server_io_threads", s.serverIoThreads());
        if (!s.thresholds().isEmpty()) {
            list("thresholds", s.thresholds(), Threshold::expression);
        }
        put("max_error_rate", s.maxErrorRate());
        put("report", s.report());
        put("json", s.json());
        if (!s.scrape().isEmpty()) {
            list("scrape", s.scrape(), URI::toString);
        }
        put("metrics_port", s.metricsPort());
        put("metrics_host", s.metricsHost());
        sections();
        if (s.worker() != 0) {
            put("worker", s.worker());
        }
        if (s.firstConnection() != 0) {
            put("first_connection", s.firstConnection());
        }
        return root;
    }

    private void workload(WorkloadSettings w) {
        put("workload.name", w.name());
        if (!w.jars().isEmpty()) {
            list("workload.jars", w.jars(), Path::toString);
        }
        if (!w.params().isEmpty()) {
            ObjectNode params = section("workload").putObject("params");
            w.params().forEach(params::put);
        }
        if (w.size() != null) {
            put("workload.size", w.size().single() ? (Object) w.size().min() : w.size().toString());
        }
        put("workload.payload", w.payload());
        put("workload.expect", w.expect());
        put("workload.proto", w.proto());
        put("workload.method", w.method());
        put("workload.request_type", w.requestType());
        put("workload.response_type", w.responseType());
        put("workload.data", w.data());
        put("workload.expect_status", w.expectStatus());
    }

    private void tls(TlsSettings t) {
        if (t.equals(TlsSettings.OFF)) {
            return;
        }
        put("tls.enabled", t.enabled());
        put("tls.ca", t.ca());
        put("tls.insecure", t.insecure());
        put("tls.client_cert", t.clientCert());
        put("tls.client_key", t.clientKey());
        put("tls.provider", t.provider());
        put("tls.resume", t.resume());
        put("tls.early_data", t.earlyData());
    }

    private void sections() {
        if (s.ramp() != null) {
            RampSettings r = s.ramp();
            put("ramp.slo", r.slo());
            put("ramp.start_rate", r.startRate());
            put("ramp.factor", r.factor());
            put("ramp.max_rate", r.maxRate());
            put("ramp.refine", r.refine());
            put("ramp.warmup_step", r.warmupStep());
        }
        if (s.sweep() != null) {
            SweepSettings w = s.sweep();
            put("sweep.requests_per_step", w.requestsPerStep());
            put("sweep.max_size", w.maxSize());
            put("sweep.counts", w.counts() == null ? null : w.counts().toString());
            put("sweep.count_size", w.countSize());
            put("sweep.sizes", w.sizes());
        }
        if (s.udpStream() != null) {
            UdpStreamSettings u = s.udpStream();
            put("udp_stream.sockets", u.sockets());
            put("udp_stream.linger", u.linger());
            put("udp_stream.search", u.search());
            put("udp_stream.max_loss", u.maxLoss());
            put("udp_stream.precision", u.precision());
            put("udp_stream.max_trials", u.maxTrials());
        }
    }

    /** {@code value} at {@code key} if the command takes the key and there is a value; as its flag writes it. */
    private void put(String key, Object value) {
        if (value == null || !everyKey && !ScenarioKeys.appliesTo(key, s.command())) {
            return;
        }
        ObjectNode into = key.contains(".") ? section(key.substring(0, key.indexOf('.'))) : root;
        String name = key.substring(key.indexOf('.') + 1);
        if (value instanceof Duration d) {
            into.put(name, Durations.format(d));
        } else if (value instanceof Double d) {
            // Whole numbers as integers (20000, not 20000.0); others exactly, as Double.toString writes them.
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                into.put(name, d.longValue());
            } else {
                into.put(name, d);
            }
        } else if (value instanceof Integer i) {
            into.put(name, i);
        } else if (value instanceof Long l) {
            into.put(name, l);
        } else if (value instanceof Boolean b) {
            into.put(name, b);
        } else {
            into.put(name, value.toString());
        }
    }

    private <T> void list(String key, Collection<T> items, Function<T, String> text) {
        if (!ScenarioKeys.appliesTo(key, s.command())) {
            return;
        }
        ObjectNode into = key.contains(".") ? section(key.substring(0, key.indexOf('.'))) : root;
        ArrayNode array = into.putArray(key.substring(key.indexOf('.') + 1));
        items.forEach(item -> array.add(text.apply(item)));
    }

    private ObjectNode section(String name) {
        return root.has(name) ? (ObjectNode) root.get(name) : root.putObject(name);
    }
}
