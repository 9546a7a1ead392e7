package io.ricochet.loadgen.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.config.ByteSizes;
import io.ricochet.config.Counts;
import io.ricochet.config.Durations;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A scenario file's tree made into a {@link Scenario}: every key checked to be one of the format's and one its command
 * takes, every value converted as the flag of the same name converts it, and every problem, the {@link Scenario}'s own
 * checks included, named at its key's line and column. Keys not given keep the command's defaults.
 */
final class ScenarioReader {
    private final LocatedTree tree;

    private ScenarioReader(LocatedTree tree) {
        this.tree = tree;
    }

    /** The scenario {@code tree} holds; {@code given} is the command it was given to (null: the file must say). */
    static Scenario read(LocatedTree tree, Command given) {
        ScenarioReader reader = new ScenarioReader(tree);
        Scenario.Builder b = reader.builder(given);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw reader.located(e);
        }
    }

    static ScenarioReader of(LocatedTree tree) {
        return new ScenarioReader(tree);
    }

    /** A builder holding the file's settings over its command's defaults: every key and value checked as it is read. */
    Scenario.Builder builder(Command given) {
        JsonNode root = tree.root();
        if (root.has("version")) {
            int version = (int) integer("version", root.get("version"), 0, Integer.MAX_VALUE);
            if (version != Scenario.VERSION) {
                throw problem("version", version + " (expected: " + Scenario.VERSION + ", the version this build reads)");
            }
        }
        Command command = command(root.get("command"), given);
        checkKeys(root, "", command);
        Scenario.Builder b = Scenario.builder(command);
        top(root, b);
        b.workload(workload(root.path("workload"), b.workload));
        b.tls(tls(root.path("tls"), b.tls));
        b.noise(noise(root.path("noise"), b.noise));
        if (root.has("ramp")) {
            b.ramp(ramp(root.get("ramp"), b.ramp));
        }
        if (root.has("sweep")) {
            b.sweep(sweep(root.get("sweep"), b.sweep));
        }
        if (root.has("udp_stream")) {
            b.udpStream(udpStream(root.get("udp_stream"), b.udpStream));
        }
        return b;
    }

    /** {@code e}, a scenario's refusal of a value, at the line and column of the key it names. */
    ScenarioFileException located(IllegalArgumentException e) {
        if (e instanceof ScenarioFileException located) {
            return located;
        }
        if (e instanceof ScenarioException s) {
            return new ScenarioFileException(tree.file(), tree.nearest(s.key()), s.key(), s.getMessage(), false);
        }
        if (e instanceof InvalidValueException v) {
            return new ScenarioFileException(tree.file(), tree.nearest(v.field()), v.field(), v.getMessage(), false);
        }
        return new ScenarioFileException(tree.file(), null, "", e.getMessage());
    }

    /** Whether the file gives {@code key}. */
    boolean gives(String key) {
        return tree.location(key) != null;
    }

    private Command command(JsonNode node, Command given) {
        if (node == null) {
            if (given == null) {
                throw problem("command", "missing (expected: one of " + labels() + ")");
            }
            return given;
        }
        Command command = convert("command", node, Command::parse);
        if (given != null && command != given) {
            throw problem("command", command.label() + " (expected: " + given.label() + ", the command this file was "
                    + "given to)");
        }
        return command;
    }

    /** Every key under {@code object} is one of the format's and one {@code command} takes. */
    private void checkKeys(JsonNode object, String path, Command command) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            String key = path.isEmpty() ? name : path + "." + name;
            if (name.contains(".")) {
                // tls.enabled is the key's name in messages; in a file it is written tls: {enabled: ...}.
                throw problem(key, "unknown key (expected: " + name.substring(0, name.indexOf('.')) + ": a mapping "
                        + "holding " + name.substring(name.indexOf('.') + 1) + ")");
            }
            if (!ScenarioKeys.known(key)) {
                String near = ScenarioKeys.closest(key);
                throw problem(key, "unknown key" + (near == null ? " (see docs/load-generator.md, \"Scenarios\")"
                        : " (did you mean " + near + "?)"));
            }
            if (!ScenarioKeys.appliesTo(key, command)) {
                throw problem(key, "does not apply to " + command.label() + " (it is for: "
                        + ScenarioKeys.commandsOf(key).stream().map(Command::label).collect(Collectors.joining(", "))
                        + ")");
            }
            if (ScenarioKeys.SECTIONS.contains(key)) {
                if (!object.get(name).isObject()) {
                    throw problem(key, "a " + LocatedTree.kind(object.get(name)) + " (expected: a mapping of its keys)");
                }
                checkKeys(object.get(name), key, command);
            }
        }
    }

    private void top(JsonNode r, Scenario.Builder b) {
        given(r, "target", n -> b.target(convert("target", joined(n), Targets::parse)));
        given(r, "transport", n -> b.transport(convert("transport", n, Values::protocol)));
        given(r, "length_field", n -> b.lengthField(convert("length_field", n, t -> LengthField.ofWidth(
                (int) integer("length_field", n, 0, 64)))));
        given(r, "connections", n -> b.connections(count("connections", n)));
        given(r, "connect_rate", n -> b.connectRate(rate("connect_rate", n)));
        given(r, "per_connection_rate", n -> b.perConnectionRate(rate("per_connection_rate", n)));
        given(r, "pipeline", n -> b.pipeline(count("pipeline", n)));
        given(r, "in_flight", n -> b.inFlight(count("in_flight", n)));
        given(r, "rate", n -> b.rate(rate("rate", n)));
        given(r, "stages", n -> b.stages(convert("stages", joined(n), Values::stages)));
        given(r, "source_addresses", n -> b.sourceAddresses(convert("source_addresses", joined(n),
                Values::sourceAddresses)));
        given(r, "duration", n -> b.duration(duration("duration", n)));
        given(r, "warmup", n -> b.warmup(duration("warmup", n)));
        given(r, "warmup_requests", n -> b.warmupRequests(longCount("warmup_requests", n)));
        given(r, "requests", n -> b.requests(longCount("requests", n)));
        given(r, "timeout", n -> b.timeout(duration("timeout", n)));
        given(r, "interval", n -> b.interval(duration("interval", n)));
        given(r, "seed", n -> b.seed(integer("seed", n, Long.MIN_VALUE, Long.MAX_VALUE)));
        given(r, "key_bits", n -> b.keyBits((int) integer("key_bits", n, 0, Integer.MAX_VALUE)));
        given(r, "io", n -> b.io(convert("io", n, TransportKind::fromLabel)));
        given(r, "io_threads", n -> b.ioThreads((int) integer("io_threads", n, -1, Integer.MAX_VALUE)));
        given(r, "server_io_threads", n -> b.serverIoThreads((int) integer("server_io_threads", n, -1,
                Integer.MAX_VALUE)));
        given(r, "thresholds", n -> b.thresholds(items(n).stream()
                .map(item -> convert("thresholds", item, Threshold::parse)).toList()));
        given(r, "max_error_rate", n -> b.maxErrorRate(convert("max_error_rate", n, Values::fraction)));
        given(r, "report", n -> b.report(convert("report", n, Path::of)));
        given(r, "json", n -> b.json(bool("json", n)));
        given(r, "scrape", n -> b.scrape(items(n).stream().map(item -> convert("scrape", item, Values::metricsUrl))
                .toList()));
        given(r, "metrics_port", n -> b.metricsPort((int) integer("metrics_port", n, -1, Integer.MAX_VALUE)));
        given(r, "metrics_host", n -> b.metricsHost(text("metrics_host", n)));
        given(r, "worker", n -> b.worker((int) integer("worker", n, -1, Integer.MAX_VALUE)));
        given(r, "first_connection", n -> b.firstConnection(integer("first_connection", n, -1, Long.MAX_VALUE)));
    }

    private WorkloadSettings workload(JsonNode w, WorkloadSettings d) {
        String k = "workload.";
        return new WorkloadSettings(
                optionalText(w, k + "name", d.name()),
                w.has("jars") ? strings(k + "jars", w.get("jars")).stream().map(Path::of).toList() : d.jars(),
                w.has("params") ? params(k + "params", w.get("params")) : d.params(),
                optionalText(w, k + "payload", d.payload()),
                optionalText(w, k + "expect", d.expect()),
                w.has("size") ? size(k + "size", w.get("size")) : d.size(),
                w.has("proto") ? convert(k + "proto", w.get("proto"), Path::of) : d.proto(),
                optionalText(w, k + "method", d.method()),
                optionalText(w, k + "request_type", d.requestType()),
                optionalText(w, k + "response_type", d.responseType()),
                optionalText(w, k + "data", d.data()),
                optionalText(w, k + "expect_status", d.expectStatus()));
    }

    private TlsSettings tls(JsonNode t, TlsSettings d) {
        return new TlsSettings(
                t.has("enabled") ? bool("tls.enabled", t.get("enabled")) : d.enabled(),
                t.has("ca") ? convert("tls.ca", t.get("ca"), Path::of) : d.ca(),
                t.has("insecure") ? bool("tls.insecure", t.get("insecure")) : d.insecure(),
                t.has("client_cert") ? convert("tls.client_cert", t.get("client_cert"), Path::of) : d.clientCert(),
                t.has("client_key") ? convert("tls.client_key", t.get("client_key"), Path::of) : d.clientKey(),
                optionalText(t, "tls.provider", d.provider()),
                t.has("resume") ? bool("tls.resume", t.get("resume")) : d.resume(),
                t.has("early_data") ? bool("tls.early_data", t.get("early_data")) : d.earlyData());
    }

    private NoiseSettings noise(JsonNode n, NoiseSettings d) {
        return new NoiseSettings(optionalText(n, "noise.server_key", d.serverKey()),
                optionalText(n, "noise.mode", d.mode()));
    }

    private RampSettings ramp(JsonNode r, RampSettings d) {
        return new RampSettings(
                r.has("slo") ? duration("ramp.slo", r.get("slo")) : d.slo(),
                r.has("start_rate") ? rate("ramp.start_rate", r.get("start_rate")) : d.startRate(),
                r.has("factor") ? decimal("ramp.factor", r.get("factor")) : d.factor(),
                r.has("max_rate") ? rate("ramp.max_rate", r.get("max_rate")) : d.maxRate(),
                r.has("refine") ? (int) integer("ramp.refine", r.get("refine"), -1, Integer.MAX_VALUE) : d.refine(),
                r.has("warmup_step") ? duration("ramp.warmup_step", r.get("warmup_step")) : d.warmupStep());
    }

    private SweepSettings sweep(JsonNode s, SweepSettings d) {
        return new SweepSettings(
                s.has("requests_per_step") ? longCount("sweep.requests_per_step", s.get("requests_per_step"))
                        : d.requestsPerStep(),
                s.has("max_size") ? bytes("sweep.max_size", s.get("max_size")) : d.maxSize(),
                s.has("counts") ? convert("sweep.counts", s.get("counts"), SizeRange::parseCounts) : d.counts(),
                s.has("count_size") ? bytes("sweep.count_size", s.get("count_size")) : d.countSize(),
                s.has("sizes") ? bool("sweep.sizes", s.get("sizes")) : d.sizes());
    }

    private UdpStreamSettings udpStream(JsonNode u, UdpStreamSettings d) {
        String k = "udp_stream.";
        return new UdpStreamSettings(
                u.has("sockets") ? count(k + "sockets", u.get("sockets")) : d.sockets(),
                u.has("linger") ? duration(k + "linger", u.get("linger")) : d.linger(),
                u.has("search") ? bool(k + "search", u.get("search")) : d.search(),
                u.has("max_loss") ? convert(k + "max_loss", u.get("max_loss"), Values::fraction) : d.maxLoss(),
                u.has("precision") ? convert(k + "precision", u.get("precision"), Values::fraction) : d.precision(),
                u.has("max_trials") ? count(k + "max_trials", u.get("max_trials")) : d.maxTrials());
    }

    private static void given(JsonNode object, String name, java.util.function.Consumer<JsonNode> set) {
        if (object.has(name)) {
            set.accept(object.get(name));
        }
    }

    private String optionalText(JsonNode object, String key, String otherwise) {
        String name = key.substring(key.indexOf('.') + 1);
        return object.has(name) ? text(key, object.get(name)) : otherwise;
    }

    /** A string, or a number or boolean as written; anything else is refused. */
    private String text(String key, JsonNode n) {
        if (!n.isValueNode() || n.isNull()) {
            throw problem(key, "a " + LocatedTree.kind(n) + " (expected: a value)");
        }
        return n.isNumber() ? tree.numberText(n) : n.asText();
    }

    /** A list of values, or one value (a list of one; a comma-separated one where the flag takes that too). */
    private List<String> strings(String key, JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(item -> out.add(text(key, item)));
        } else {
            out.add(text(key, n));
        }
        return out;
    }

    /** A list's items, or the one value as a list of one. */
    private static List<JsonNode> items(JsonNode n) {
        List<JsonNode> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(out::add);
        } else {
            out.add(n);
        }
        return out;
    }

    /** A list of values as the one comma-separated value its flag takes; one value as it is. */
    private JsonNode joined(JsonNode n) {
        if (!n.isArray()) {
            return n;
        }
        List<String> parts = new ArrayList<>();
        n.forEach(item -> parts.add(text("", item)));
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(String.join(",", parts));
    }

    private Map<String, String> params(String key, JsonNode n) {
        if (!n.isObject()) {
            throw problem(key, "a " + LocatedTree.kind(n) + " (expected: a mapping of names to values)");
        }
        Map<String, String> out = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> out.put(e.getKey(), text(key + "." + e.getKey(), e.getValue())));
        return out;
    }

    private boolean bool(String key, JsonNode n) {
        if (!n.isBoolean()) {
            throw problem(key, text(key, n) + " (expected: true or false)");
        }
        return n.booleanValue();
    }

    private long integer(String key, JsonNode n, long min, long max) {
        if (!n.isIntegralNumber() && !(n.isNumber() && n.decimalValue().stripTrailingZeros().scale() <= 0)) {
            throw problem(key, text(key, n) + " (expected: a whole number)");
        }
        try {
            long v = n.decimalValue().longValueExact();
            if (v < min || v > max) {
                throw problem(key, v + " (expected: " + min + ".." + max + ")");
            }
            return v;
        } catch (ArithmeticException e) {
            throw problem(key, text(key, n) + " (expected: a whole number)");
        }
    }

    private int count(String key, JsonNode n) {
        return n.isNumber() ? (int) integer(key, n, Integer.MIN_VALUE, Integer.MAX_VALUE)
                : convert(key, n, t -> Counts.parseInt(t));
    }

    private long longCount(String key, JsonNode n) {
        return n.isNumber() ? integer(key, n, Long.MIN_VALUE, Long.MAX_VALUE) : convert(key, n, t -> Counts.parseLong(t));
    }

    private int bytes(String key, JsonNode n) {
        return n.isNumber() ? (int) integer(key, n, Integer.MIN_VALUE, Integer.MAX_VALUE)
                : convert(key, n, ByteSizes::parseInt);
    }

    private double rate(String key, JsonNode n) {
        return n.isNumber() ? decimal(key, n) : convert(key, n, Values::rate);
    }

    private double decimal(String key, JsonNode n) {
        if (!n.isNumber()) {
            return convert(key, n, t -> {
                try {
                    return Double.parseDouble(t);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(key + ": " + t + " (expected: a number)");
                }
            });
        }
        double v = n.doubleValue();
        if (!Double.isFinite(v)) {
            throw problem(key, text(key, n) + " (expected: a finite number)");
        }
        return v;
    }

    private Duration duration(String key, JsonNode n) {
        return convert(key, n, t -> {
            Duration d = Durations.parse(t);
            try {
                // The engine counts in nanoseconds: a duration past 292 years does not fit one.
                d.toNanos();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(key + ": " + t + " (expected: under 292 years)");
            }
            return d;
        });
    }

    private SizeRange size(String key, JsonNode n) {
        return convert(key, n, t -> t.contains("..") ? SizeRange.parseBytes(t) : SizeRange.of(ByteSizes.parseInt(t)));
    }

    /** {@code n}'s text made by {@code convert}; its refusal named at {@code key}, in the key's name. */
    private <T> T convert(String key, JsonNode n, Function<String, T> convert) {
        String text = text(key, n);
        try {
            return convert.apply(text);
        } catch (InvalidValueException e) {
            throw problem(key, e.value() + " (expected: " + e.expected() + ")");
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(": ");
            throw problem(key, colon > 0 && colon < 40 ? message.substring(colon + 2) : message);
        }
    }

    private ScenarioFileException problem(String key, String what) {
        return new ScenarioFileException(tree.file(), tree.location(key), key, what);
    }

    private static String labels() {
        return java.util.Arrays.stream(Command.values()).map(Command::label).collect(Collectors.joining(", "));
    }
}
