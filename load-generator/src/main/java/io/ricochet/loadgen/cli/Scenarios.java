package io.ricochet.loadgen.cli;

import io.ricochet.config.Checks;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Model.CommandSpec;

/** Builds a {@link LoadSpec} from parsed options and runs it; shared by echo, rr and massive (and the spec by crr). */
final class Scenarios {
    private Scenarios() {
    }

    static int runEcho(String command, CommandSpec commandSpec, CommonOptions common, LoadOptions load,
            ConnectionOptions connections, int pipeline, double rate, RunHooks hooks) throws InterruptedException {
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintStream err = System.err;
        LoadSpec.Builder builder = validated(commandSpec, common, load, b -> b.protocol(load.protocol)
                .connections(connections.connections).connectRate(connections.connectRate).pipeline(pipeline)
                .rate(rate).perConnectionRate(connections.perConnectionRate));
        FrameWorkload workload = workload(commandSpec, common, load);
        Plans.checkAlone(commandSpec);
        int maxFrame = embeddedMaxFrame(load, workload);
        Duration idle = idleTimeout(connections.perConnectionRate);
        try (RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, load.field(), maxFrame,
                idle, load.protocol, err)) {
            LoadSpec spec = builder.targets(target.address(load.protocol))
                    .tls(RunSupport.within(target.tls(), load.timeout)).quic(target.quic())
                    .noise(RunSupport.within(target.noise(), load.timeout)).build();
            noteWhatRunsDifferently(spec, pipeline, load.warmup == null, commandSpec.commandLine().getErr());
            return RunSupport.runAndReport(command, spec, workload, common, target.scrape(), out, err,
                    config(command, spec, load), hooks);
        }
    }

    /**
     * Says what the run does that was not asked in so many words: an open loop's default warmup, and over UDP one
     * request in flight per socket.
     */
    static void noteWhatRunsDifferently(LoadSpec spec, int pipeline, boolean defaultWarmup, PrintWriter err) {
        if (defaultWarmup && !spec.warmup().isZero()) {
            err.println("note: open loop warms up for " + Durations.format(spec.warmup()) + " first, not counted, so "
                    + "the JVM's start-up is not in the latency (--warmup 0s counts it)");
        }
        if (spec.effectivePipeline() != pipeline) {
            err.println("note: --pipeline " + pipeline + " runs as " + spec.effectivePipeline() + " over UDP: one "
                    + "datagram in flight per socket, so a lost one is told by its timeout alone; for more in flight "
                    + "use more --connections");
            err.flush();
        }
    }

    /**
     * The spec as the options shared by every echo-style command give it, with {@code shape} adding the command's own;
     * validated (all but the target, which may be a server not started yet), a bad value a usage error.
     */
    static LoadSpec.Builder validated(CommandSpec commandSpec, CommonOptions common, LoadOptions load,
            UnaryOperator<LoadSpec.Builder> shape) {
        try {
            LoadSpec.Builder builder = shape.apply(LoadSpec.builder((InetSocketAddress) null)
                    .lengthField(load.field()).duration(load.duration).timeout(load.timeout)
                    .sourceAddresses(load.sourceAddresses.addresses()).firstConnection(load.firstConnection.value)
                    .seed(common.seed).worker(common.workerIndex).interval(common.interval)
                    .ioThreads(common.ioThreads).transport(common.io));
            LoadSpec spec = builder.target(new InetSocketAddress(0)).build();
            builder.warmup(load.warmup(spec.openLoop())).build();
            Checks.inRange("minSize", load.size.min(), 1, spec.largestBody());
            Checks.inRange("maxSize", load.size.max(), load.size.min(), spec.largestBody());
            return builder;
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
    }

    /**
     * The embedded server's max frame: the length field's default, or more for the largest body the workload sends
     * (generated bodies of --size, or a --payload), so the server takes every request it is sent.
     */
    static int embeddedMaxFrame(LoadOptions load, FrameWorkload workload) {
        int largest = workload instanceof PayloadWorkload p ? p.maxBodyLength() : load.size.max();
        return Math.max(load.field().defaultMaxFrame(), Math.min(largest, load.field().largestMaxFrame()));
    }

    /** The command's workload: from a jar, a --payload with its --expect, or generated bodies of --size. */
    static FrameWorkload workload(CommandSpec commandSpec, CommonOptions common, LoadOptions load) {
        int largest = load.protocol == Protocol.UDP ? load.field().largestUdpBody() : load.field().largestMaxFrame();
        return load.requests.resolve(commandSpec.commandLine(), load.size.min(), load.size.max(), common.seed, largest);
    }

    /** An embedded server's idle timeout: long enough for three requests at the per-connection rate, 30 s at least. */
    static Duration idleTimeout(double perConnectionRate) {
        return Duration.ofSeconds(Math.max(30, (long) (perConnectionRate > 0 ? 3 / perConnectionRate : 0)));
    }

    static Map<String, Object> config(String command, LoadSpec spec, LoadOptions load) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", command);
        c.put("target", spec.targets().toString());
        c.put("transport", spec.protocol().tag());
        c.put("connections", spec.connections());
        c.put("connect_rate", spec.connectRate());
        c.put("pipeline", spec.effectivePipeline());
        c.put("rate", spec.rate());
        c.put("per_connection_rate", spec.perConnectionRate());
        c.put("size_min", load.size.min());
        c.put("size_max", load.size.max());
        c.put("workload", load.requests.describe());
        c.put("length_field", spec.lengthField().width());
        c.put("duration_s", spec.duration().toNanos() / 1e9);
        c.put("warmup_s", spec.warmup().toNanos() / 1e9);
        c.put("timeout_s", spec.timeout().toNanos() / 1e9);
        c.put("source_addresses", spec.sourceAddresses().stream().map(a -> a.getHostAddress()).toList());
        c.put("seed", spec.seed());
        c.put("worker", spec.worker());
        c.put("max_requests", spec.maxRequests());
        c.put("interval_s", spec.interval().toNanos() / 1e9);
        c.put("io_threads", spec.ioThreads());
        c.put("client_io", spec.transport().label());
        c.put("tls", spec.tls() == null ? "off" : spec.tls().provider());
        c.put("noise", spec.noise() == null ? "off" : spec.noise().mode().label() + "/" + spec.noise().keyBits());
        return c;
    }
}
