package io.ricochet.loadgen.cli;

import io.ricochet.config.LengthField;
import io.ricochet.loadgen.report.ServerLines;
import io.ricochet.loadgen.report.ServerSummary;
import io.ricochet.loadgen.report.UdpStreamSummary;
import io.ricochet.loadgen.scenario.LoadDriver;
import io.ricochet.loadgen.scenario.Measurement;
import io.ricochet.loadgen.scenario.RunOptions;
import io.ricochet.loadgen.scenario.Schedule;
import io.ricochet.loadgen.scenario.UdpStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "udp-stream", mixinStandardHelpOptions = true, sortOptions = false,
        description = "UDP packet rate and bandwidth (UCloud's test, netperf UDP_STREAM with replies): blast datagrams "
                + "of --size (1 for pps, 1400 for bandwidth) for --duration; report sent and received pps, bytes/s, loss.")
final class UdpStreamCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    @Option(names = "--size", converter = Converters.ByteSizeConverter.class, defaultValue = "1", description = "Body bytes per datagram (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--sockets", converter = Converters.CountConverter.class, defaultValue = "1", description = "Sending sockets (default: ${DEFAULT-VALUE}).")
    int sockets;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total datagrams/s; 0 = as fast as the sockets take them (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--length-field", defaultValue = "2", description = "2 or 4 (default: ${DEFAULT-VALUE}).")
    int lengthField;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.DurationConverter.class,
            description = "How long to send (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--linger", defaultValue = "500ms", converter = Converters.DurationConverter.class,
            description = "How long to wait for replies after sending stops (default: ${DEFAULT-VALUE}).")
    Duration linger;

    @Override
    public Integer call() throws Exception {
        LengthField field;
        try {
            field = LengthField.ofWidth(lengthField);
            io.ricochet.internal.Checks.inRange("size", size, 1, field.largestUdpBody());
            io.ricochet.internal.Checks.positive("sockets", sockets);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
        RunSupport.requireOneTarget(commandSpec.commandLine(), common, "udp-stream");
        PrintWriter out = commandSpec.commandLine().getOut();
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err);
                RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, field,
                        Math.max(field.defaultMaxFrame(), size), Duration.ofSeconds(30), true, System.err)) {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("command", "udp-stream");
            config.put("target", target.udp().toString());
            config.put("sockets", sockets);
            config.put("size", size);
            config.put("rate", rate);
            config.put("duration_s", duration.toNanos() / 1e9);
            RunOptions options = new RunOptions("udp-stream", target.scrape(), common.report, System.err, config,
                    alone.hooks());
            // Replies still in flight when sending stops land in the last interval; rates are over the sending time.
            Schedule schedule = new Schedule(Duration.ZERO, duration, common.interval, linger);
            UdpStreamSummary summary;
            try (UdpStream stream = new UdpStream(target.udp().first(), sockets, size, field.width(), rate, common.seed,
                    common.io, common.ioThreads)) {
                summary = new LoadDriver(options, schedule).run(stream, (measured, report) -> summary(stream, measured));
            }
            UdpStreamSummary finished = summary;
            return alone.exitStatus(RunSupport.conclude(common, summary,
                    summary.bad() > 0 || summary.received() == 0 ? ExitCodes.FAILED : ExitCodes.OK,
                    () -> printTable(finished, out), out));
        }
    }

    private UdpStreamSummary summary(UdpStream stream, Measurement measured) {
        long sent = measured.total().sent();
        long received = measured.total().ok();
        double seconds = measured.sendingSeconds();
        return new UdpStreamSummary("udp-stream", stream.target().getHostString() + ":" + stream.target().getPort(),
                stream.io().kind().label(), sockets, size, round(seconds), rate, sent, received, measured.total().bad(),
                round(sent / seconds), round(received / seconds), round(received * (double) size / seconds),
                sent == 0 ? 0 : round(1 - (double) received / sent), measured.server());
    }

    private void printTable(UdpStreamSummary summary, PrintWriter out) {
        ServerSummary server = summary.server();
        out.printf(Locale.ROOT, "udp-stream -> %s (%s), %d socket(s), %d-byte bodies%n", summary.target(), summary.io(),
                sockets, size);
        out.printf(Locale.ROOT, "%12s %12s %8s %9s %12s %12s %14s %8s %8s %10s%n", "sent", "received", "bad",
                "time(s)", "sent_pps", "recv_pps", "recv_bytes/s", "loss", "srv_cpu", "srv_rss_MB");
        out.printf(Locale.ROOT, "%12d %12d %8d %9.2f %12.0f %12.0f %14.0f %7.2f%% %8s %10s%n", summary.sent(),
                summary.received(), summary.bad(), summary.durationS(), summary.sentPps(), summary.receivedPps(),
                summary.receivedBytesPerS(), summary.loss() * 100, server == null || Double.isNaN(server.cpuMax()) ? "-"
                        : String.format(Locale.ROOT, "%.1f%%", server.cpuMax() * 100),
                server == null || Double.isNaN(server.rssMaxBytes()) ? "-"
                        : String.format(Locale.ROOT, "%.1f", server.rssMaxBytes() / 1048576));
        ServerLines.print(server, out);
        if (server != null) {
            out.printf(Locale.ROOT, "cross-check: server frames.sent grew by %.0f%s, client received %d%n",
                    server.framesSent(), ServerLines.summed(server), summary.received());
        }
        if (summary.sentLessThanAsked()) {
            out.printf(Locale.ROOT, "note: sent %.0f datagrams/s of the %.0f asked (--rate): the client could not "
                    + "send faster; try more --sockets or --io-threads%n", summary.sentPps(), summary.ratePps());
        }
        out.flush();
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
