package io.ricochet.loadgen.run;

import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RpcLoad;
import io.ricochet.loadgen.engine.RpcSpec;
import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.report.threshold.LiveThresholds;
import io.ricochet.loadgen.rpc.Registration;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.loadgen.workload.Workload;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs a {@link Scenario} of a command that a controller splits (echo, rr, crr, massive, rpc, register) on the engine,
 * and returns its summary: the same for the command line alone, for a worker's shard and for {@code LoadTest}. The
 * scenario must have its target; its workload is made first ({@link ScenarioWorkloads}) so a problem is found before
 * any connection.
 *
 * <pre>{@code
 * Workload workload = ScenarioWorkloads.of(scenario);
 * Object summary = ScenarioRuns.run(scenario, workload, new RunOptions("echo", List.of(), null, System.err, Map.of()));
 * }</pre>
 */
public final class ScenarioRuns {
    private ScenarioRuns() {
    }

    /**
     * Runs {@code s} with {@code workload} (a {@link FrameWorkload} for the framed commands, an {@link RpcWorkload} for
     * rpc, none for register) and returns its summary: a {@code Summary}, or an {@code RpcSummary} for rpc and register.
     * The report's config.json holds {@link #config} of the scenario, then what {@code options} add.
     */
    public static Object run(Scenario s, Workload workload, RunOptions given) throws InterruptedException {
        return run(s, ClientSecurity.of(s), workload, given);
    }

    /**
     * Runs {@code s} as {@link #run(Scenario, Workload, RunOptions)} does, connecting with {@code security} rather than
     * the security its settings build: a {@code Tls} or Noise configuration that a caller made in code.
     */
    public static Object run(Scenario s, ClientSecurity security, Workload workload, RunOptions given)
            throws InterruptedException {
        RunOptions options = given.withConfigFirst(config(s, security));
        return switch (s.command()) {
            case ECHO, RR, MASSIVE -> FrameRuns.held(s.command().label(), frames(s, security), (FrameWorkload) workload,
                    options);
            case CRR -> FrameRuns.perRequest("crr", frames(s, security), (FrameWorkload) workload,
                    s.tls().resume(), options);
            case RPC -> RpcRuns.run("rpc", new RpcLoad(calls(s, security), (RpcWorkload) workload), s.interval(),
                    options);
            case REGISTER -> RpcRuns.run("register", new RpcLoad(calls(s, security), new Registration(
                    s.bodySize().min(), s.seed(), s.timeout())), s.interval(), options);
            default -> throw new IllegalArgumentException("command: " + s.command().label()
                    + " (expected: echo, rr, crr, massive, rpc or register)");
        };
    }

    /**
     * The live judge of {@code s}'s thresholds, saying first breaches and an abort on {@code progress} (null: quiet).
     * A command of several runs (ramp, sweep, a UDP search) is judged at its end only: it gets a judge of none.
     */
    public static LiveThresholds liveThresholds(Scenario s, PrintStream progress) {
        if (s.severalRuns() || s.thresholds().isEmpty()) {
            return LiveThresholds.none();
        }
        return new LiveThresholds(s.thresholds(), s.interval(), s.command().label(), progress);
    }

    /** The engine's spec of a framed scenario: its target, connections, pacing and timing, and its security. */
    public static LoadSpec frames(Scenario s, ClientSecurity security) {
        if (s.target() == null) {
            throw new IllegalArgumentException("target: none (expected: the servers to load)");
        }
        return LoadSpec.builder(s.target()).protocol(s.transport()).connections(s.connections())
                .connectRate(s.connectRate()).pipeline(s.pipeline()).rate(s.rate())
                .perConnectionRate(s.perConnectionRate()).lengthField(s.lengthField()).duration(s.duration())
                .warmup(s.effectiveWarmup()).timeout(s.timeout()).sourceAddresses(s.sourceAddresses())
                .firstConnection(s.firstConnection()).seed(s.seed()).maxRequests(s.requests()).worker(s.worker())
                .interval(s.interval()).ioThreads(s.ioThreads()).transport(s.io()).tls(security.tls())
                .noise(security.noise()).quic(security.quic()).stages(s.stages()).build();
    }

    /** The engine's spec of an RPC scenario: its RPC port, clients (register: pairs), calls and pacing. */
    public static RpcSpec calls(Scenario s, ClientSecurity security) {
        if (s.target() == null) {
            throw new IllegalArgumentException("target: none (expected: the RPC server to load)");
        }
        boolean rpc = s.command() == Command.RPC;
        return new RpcSpec(s.target().first(), s.connections(), s.requests(), s.warmupRequests(),
                rpc ? s.inFlight() : 1, rpc ? s.rate() : 0, s.timeout(), s.seed(), s.worker(), s.firstConnection(),
                s.io(), s.ioThreads(), security.tls(), security.noise());
    }

    /** The settings of {@code s} that a report's config.json keeps, as each command has always written them. */
    public static Map<String, Object> config(Scenario s, ClientSecurity security) {
        Map<String, Object> c = s.command().rpc() ? rpcConfig(s) : frameConfig(s);
        c.put("tls", security.tls() == null ? "off" : security.tls().provider());
        c.put("noise", security.noise() == null ? "off" : security.noise().mode().label() + "/"
                + security.noise().keyBits());
        if (s.command().rpc()) {
            // The RPC commands have always named their workload last.
            c.put("workload", c.remove("workload"));
        }
        return c;
    }

    /**
     * Puts {@code s}'s stages, if any, in a report's {@code config}, as the report draws them behind the achieved rate
     * or connections: their kind, the command line's text, and each stage's target, length and whether it steps. A
     * merged report's config gets them too, from the whole scenario.
     */
    public static void putStages(Map<String, Object> config, Scenario s) {
        if (s.stages() != null) {
            config.put("stages", stages(s.stages()));
            config.putIfAbsent("interval_s", s.interval().toNanos() / 1e9);
        }
    }

    private static Map<String, Object> stages(Stages stages) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", stages.kind() == Stages.Kind.RATE ? "rate" : "connections");
        out.put("text", stages.format());
        out.put("stages", stages.list().stream().map(st -> {
            Map<String, Object> stage = new LinkedHashMap<>();
            stage.put("target", st.target());
            stage.put("duration_s", st.duration().toNanos() / 1e9);
            stage.put("step", st.step());
            return stage;
        }).toList());
        return out;
    }

    private static Map<String, Object> frameConfig(Scenario s) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", s.command().label());
        c.put("target", s.target() == null ? null : s.target().toString());
        c.put("transport", s.transport().tag());
        c.put("connections", s.connections());
        c.put("connect_rate", s.connectRate());
        c.put("pipeline", s.transport() == io.ricochet.transport.Protocol.UDP ? 1 : s.pipeline());
        c.put("rate", s.rate());
        c.put("per_connection_rate", s.perConnectionRate());
        putStages(c, s);
        c.put("size_min", s.bodySize().min());
        c.put("size_max", s.bodySize().max());
        c.put("workload", ScenarioWorkloads.describe(s));
        c.put("length_field", s.lengthField().width());
        c.put("duration_s", s.duration().toNanos() / 1e9);
        c.put("warmup_s", s.effectiveWarmup().toNanos() / 1e9);
        c.put("timeout_s", s.timeout().toNanos() / 1e9);
        c.put("source_addresses", s.sourceAddresses().stream().map(a -> a.getHostAddress()).toList());
        c.put("seed", s.seed());
        c.put("worker", s.worker());
        c.put("max_requests", s.requests());
        c.put("interval_s", s.interval().toNanos() / 1e9);
        c.put("io_threads", s.ioThreads());
        c.put("client_io", s.io().label());
        c.put("tls", null);
        c.put("noise", null);
        return c;
    }

    private static Map<String, Object> rpcConfig(Scenario s) {
        boolean rpc = s.command() == Command.RPC;
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", s.command().label());
        c.put("target", s.target() == null ? null : s.target().toString());
        c.put("clients", s.connections());
        c.put("total", s.requests());
        c.put("warmup", s.warmupRequests());
        c.put("in_flight", rpc ? s.inFlight() : 1);
        c.put("rate", rpc ? s.rate() : 0.0);
        c.put("size", s.bodySize().min());
        c.put("timeout_s", s.timeout().toNanos() / 1e9);
        c.put("seed", s.seed());
        c.put("worker", s.worker());
        c.put("io_threads", s.ioThreads());
        c.put("client_io", s.io().label());
        c.put("tls", null);
        c.put("noise", null);
        c.put("workload", ScenarioWorkloads.describe(s));
        return c;
    }
}
