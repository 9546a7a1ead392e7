package io.ricochet.loadgen.scenario;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.notNegative;
import static io.ricochet.config.Checks.notNull;
import static io.ricochet.config.Checks.positive;

import io.ricochet.config.Durations;
import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.scenario.ScenarioException.Key;
import io.ricochet.transport.Protocol;

/**
 * Every check a {@link Scenario} passes when it is built, in one place, whoever made it. A range is an
 * {@link InvalidValueException} naming the key ({@code connections: 0 (expected: > 0)}); values that do not go
 * together are a {@link ScenarioException} naming each key. Security and workload settings have rules of their own
 * ({@link SecurityRules}, {@link WorkloadRules}), run from here.
 */
final class ScenarioRules {
    /** The most intervals a threshold's window spans: each keeps its latencies, some 32 to 90 KiB, until it leaves. */
    static final int MAX_WINDOW_INTERVALS = 3600;
    /** The largest body of an RPC call that the generator makes itself. */
    static final int MAX_RPC_BODY = 1 << 20;

    private ScenarioRules() {
    }

    static void check(Scenario s) {
        notNull("command", s.command());
        notNull("transport", s.transport());
        notNull("length_field", s.lengthField());
        notNull("workload", s.workload());
        notNull("io", s.io());
        positive("interval", s.interval());
        inRange("io_threads", s.ioThreads(), 0, 1024);
        inRange("server_io_threads", s.serverIoThreads(), 0, 1024);
        inRange("max_error_rate", s.maxErrorRate(), 0, 1);
        inRange("worker", s.worker(), 0, Integer.MAX_VALUE);
        inRange("first_connection", s.firstConnection(), 0, Long.MAX_VALUE / 2);
        if (s.metricsPort() != null) {
            inRange("metrics_port", s.metricsPort(), 0, 65_535);
        }
        sectionOnlyWith(s.ramp(), "ramp", Command.RAMP, s.command());
        sectionOnlyWith(s.sweep(), "sweep", Command.SWEEP, s.command());
        sectionOnlyWith(s.udpStream(), "udp_stream", Command.UDP_STREAM, s.command());
        switch (s.command()) {
            case ECHO, RR, MASSIVE, CRR, RAMP -> frames(s);
            case RPC, REGISTER -> calls(s);
            case SWEEP -> sweep(s);
            case UDP_STREAM -> udpStream(s);
        }
        stages(s);
        SecurityRules.check(s);
        thresholds(s);
    }

    /**
     * Stages take the place of what they set over time: a rate schedule of {@code rate} and {@code per_connection_rate},
     * a connection schedule of {@code connections}' count and {@code connect_rate}'s ramp; both of {@code duration},
     * {@code warmup} (the first stage is the ramp) and a request limit. echo takes both kinds; massive, whose
     * connections each send at their own rate, takes a connection schedule.
     */
    private static void stages(Scenario s) {
        Stages st = s.stages();
        if (st == null) {
            return;
        }
        boolean connections = st.kind() == Stages.Kind.CONNECTIONS;
        if (s.command() != Command.ECHO && !(s.command() == Command.MASSIVE && connections)) {
            throw new ScenarioException("stages", Key.of("stages"), (connections ? " of connections" : " of rates")
                    + " with command " + s.command().label() + " (expected: echo" + (connections ? " or massive" : "")
                    + ")");
        }
        if (s.rate() > 0) {
            throw both("rate", connections ? "a total rate over a changing count of connections; give "
                    + "per_connection_rate, or stages of rates" : "the stages set the rate");
        }
        if (!connections && s.perConnectionRate() > 0) {
            throw both("per_connection_rate", "the stages set the rate");
        }
        if (connections && s.connectRate() > 0) {
            throw both("connect_rate", "the stages are the connect ramp");
        }
        if (s.requests() > 0) {
            throw both("requests", "the stages end the run");
        }
        if (s.warmup() != null && !s.warmup().isZero()) {
            throw both("warmup", "the first stage is the ramp a warmup would be; its intervals are measured");
        }
        if (!s.duration().equals(st.total())) {
            throw new InvalidValueException("duration", Durations.format(s.duration()), "the stages' total, "
                    + Durations.format(st.total()));
        }
        if (connections && s.connections() != (int) st.peak()) {
            throw new InvalidValueException("connections", Integer.toString(s.connections()), "the stages' peak, "
                    + (int) st.peak());
        }
    }

    private static ScenarioException both(String key, String why) {
        return new ScenarioException(key, Key.of("stages"), " with ", Key.of(key), " (expected: one of them; " + why
                + ")");
    }

    /**
     * A window fits in the run and holds at least one interval; a command of several runs (ramp, sweep, a UDP search)
     * is judged at its end only, so it takes neither windows nor aborts.
     */
    private static void thresholds(Scenario s) {
        for (Threshold t : s.thresholds()) {
            if (s.severalRuns() && (t.windowed() || t.abort())) {
                throw new InvalidValueException("thresholds", t.expression(), "no window and no abort with command "
                        + s.command().label() + (s.command() == Command.UDP_STREAM ? " --search" : "")
                        + ", whose thresholds are judged on its steps at the end");
            }
            if (!t.windowed()) {
                continue;
            }
            if (t.window().toNanos() / Math.max(1, s.interval().toNanos()) > MAX_WINDOW_INTERVALS) {
                throw new InvalidValueException("thresholds", t.expression(), "a window of at most "
                        + MAX_WINDOW_INTERVALS + " intervals of " + Durations.format(s.interval())
                        + " (a longer --interval takes a longer window)");
            }
            if (t.window().compareTo(s.interval()) < 0) {
                throw new InvalidValueException("thresholds", t.expression(), "a window of at least the interval, "
                        + Durations.format(s.interval()));
            }
            if (s.duration() != null && t.window().compareTo(s.duration()) > 0) {
                throw new InvalidValueException("thresholds", t.expression(), "a window no longer than the run's "
                        + "duration, " + Durations.format(s.duration()));
            }
        }
    }

    private static void sectionOnlyWith(Object section, String key, Command owner, Command command) {
        if (section == null && command == owner) {
            throw new InvalidValueException(key, "(none)", "its settings, for command " + owner.label());
        }
        if (section != null && command != owner) {
            throw new ScenarioException(key, Key.of(key), " with command " + command.label() + " (expected: only with "
                    + owner.label() + ")");
        }
    }

    /** The framed commands on held connections, crr's on a connection per request, and ramp's steps. */
    private static void frames(Scenario s) {
        if (s.command() == Command.CRR) {
            crr(s);
        }
        positive("connections", s.connections());
        inRange("pipeline", s.pipeline(), 1, 1 << 16);
        notNegative("connect_rate", s.connectRate());
        notNegative("rate", s.rate());
        notNegative("per_connection_rate", s.perConnectionRate());
        if (s.rate() > 0 && s.perConnectionRate() > 0) {
            throw new InvalidValueException("per_connection_rate", Double.toString(s.perConnectionRate()),
                    "0 with a total rate");
        }
        positive("duration", s.duration());
        if (s.warmup() != null && s.warmup().isNegative()) {
            throw new InvalidValueException("warmup", Durations.format(s.warmup()), ">= 0");
        }
        positive("timeout", s.timeout());
        notNegative("requests", s.requests());
        if (s.requests() > 0 && s.warmup() != null && !s.warmup().isZero()) {
            throw new ScenarioException("requests", Key.of("requests"), " with ", Key.of("warmup"),
                    " (expected: one of them; the warmup's requests would count toward the limit)");
        }
        WorkloadRules.frames(s);
        if (s.command() == Command.RAMP) {
            ramp(s.ramp());
        }
    }

    private static void crr(Scenario s) {
        boolean quic = s.transport() == Protocol.QUIC;
        if (s.tls().resume() && !s.tls().enabled() && !quic) {
            throw new ScenarioException("tls.resume", Key.of("tls.resume"), " without ", Key.of("tls.enabled"), " or ",
                    Key.of("transport"), " quic");
        }
        if (s.tls().earlyData() && !quic) {
            throw new ScenarioException("tls.early_data", Key.of("tls.early_data"), " without ", Key.of("transport"),
                    " quic");
        }
        if (s.transport() == Protocol.UDP) {
            throw new ScenarioException("transport", "transport: udp (crr connects: tcp or quic)");
        }
    }

    private static void ramp(RampSettings r) {
        positive("ramp.slo", r.slo());
        if (!(r.startRate() > 0)) {
            throw new InvalidValueException("ramp.start_rate", Double.toString(r.startRate()), "> 0");
        }
        if (!(r.factor() > 1)) {
            throw new InvalidValueException("ramp.factor", Double.toString(r.factor()), "> 1");
        }
        if (!(r.maxRate() >= r.startRate())) {
            throw new InvalidValueException("ramp.max_rate", Double.toString(r.maxRate()), ">= the start rate, "
                    + r.startRate());
        }
        inRange("ramp.refine", r.refine(), 0, 64);
        notNull("ramp.warmup_step", r.warmupStep());
        if (r.warmupStep().isNegative()) {
            throw new InvalidValueException("ramp.warmup_step", Durations.format(r.warmupStep()), ">= 0");
        }
    }

    /** rpc and register: clients (pairs) making calls (cycles) over the RPC port. */
    private static void calls(Scenario s) {
        inRange("workload.size", s.bodySize().max(), 0, MAX_RPC_BODY);
        if (!s.bodySize().single()) {
            throw new InvalidValueException("workload.size", s.bodySize().toString(), "one size, " + s.command().label()
                    + "'s calls all have one");
        }
        positive("connections", s.connections());
        positive("requests", s.requests());
        notNegative("warmup_requests", s.warmupRequests());
        positive("in_flight", s.inFlight());
        notNegative("rate", s.rate());
        positive("timeout", s.timeout());
        oneTarget(s);
        WorkloadRules.calls(s);
    }

    private static void sweep(Scenario s) {
        SweepSettings w = s.sweep();
        inRange("sweep.max_size", w.maxSize(), 1, LengthField.FOUR.largestMaxFrame());
        positive("sweep.requests_per_step", w.requestsPerStep());
        inRange("sweep.count_size", w.countSize(), 1, LengthField.FOUR.largestMaxFrame());
        positive("connections", s.connections());
        inRange("pipeline", s.pipeline(), 1, 1 << 16);
        positive("timeout", s.timeout());
        if (!w.sizes() && w.counts() == null) {
            throw ScenarioException.nothingToRun("sweep.sizes", "nothing to sweep: ", Key.of("sweep.sizes"),
                    " without ", Key.of("sweep.counts"));
        }
        if (w.sizes() && w.maxSize() < 128) {
            throw w.counts() == null
                    ? ScenarioException.nothingToRun("sweep.max_size", "nothing to sweep: ", Key.of("sweep.max_size"),
                            " " + w.maxSize() + " is below the first size step, 128")
                    : ScenarioException.nothingToRun("sweep.max_size", "nothing to sweep: ", Key.of("sweep.max_size"),
                            " " + w.maxSize() + " is below the first size step, 128 (add ", Key.of("sweep.sizes"),
                            " to sweep counts only)");
        }
    }

    private static void udpStream(Scenario s) {
        UdpStreamSettings u = s.udpStream();
        inRange("workload.size", s.bodySize().max(), 1, s.lengthField().largestUdpBody());
        if (!s.bodySize().single()) {
            throw new InvalidValueException("workload.size", s.bodySize().toString(), "one size");
        }
        positive("udp_stream.sockets", u.sockets());
        positive("duration", s.duration());
        notNull("udp_stream.linger", u.linger());
        if (u.linger().isNegative()) {
            throw new InvalidValueException("udp_stream.linger", Durations.format(u.linger()), ">= 0");
        }
        notNegative("rate", s.rate());
        if (u.search()) {
            inRange("udp_stream.max_loss", u.maxLoss(), 0, 1);
            inRange("udp_stream.precision", u.precision(), 0.001, 0.5);
            inRange("udp_stream.max_trials", u.maxTrials(), 2, 100);
            if (s.rate() > 0) {
                throw ScenarioException.nothingToRun("rate", Key.of("rate"), " and ", Key.of("udp_stream.search"),
                        ": the search sets the rate (expected: one of them)");
            }
        }
        oneTarget(s);
    }

    /** rpc, register and udp-stream load one server: a list of targets is refused. */
    private static void oneTarget(Scenario s) {
        if (s.target() != null && s.target().size() > 1) {
            throw new InvalidValueException("target", s.target().toString(), "one HOST:PORT; " + s.command().label()
                    + " loads a single server");
        }
    }
}
