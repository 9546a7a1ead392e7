package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.engine.DatagramStream;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RateSearch;
import io.ricochet.loadgen.engine.Schedule;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.Payload;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.payload.Template;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.report.ServerLines;
import io.ricochet.loadgen.report.Summaries;
import io.ricochet.loadgen.report.UdpSearchSummary;
import io.ricochet.loadgen.report.UdpStreamSummary;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.run.Runs;
import io.ricochet.loadgen.scrape.ServerSummary;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
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
                + "of --size (1 for pps, 1400 for bandwidth) for --duration; report sent and received pps, bytes/s, loss. "
                + "With --search, RFC 2544's throughput: the highest rate whose loss stays within --max-loss.")
final class UdpStreamCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    @Option(names = "--size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "1", description = "Body bytes per datagram (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--sockets", converter = ValueConverters.CountConverter.class, defaultValue = "1", description = "Sending sockets (default: ${DEFAULT-VALUE}).")
    int sockets;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total datagrams/s; 0 = as fast as the sockets take them (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--length-field", defaultValue = "2", description = "2 or 4 (default: ${DEFAULT-VALUE}).")
    int lengthField;

    @Option(names = "--duration", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "How long to send (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--linger", defaultValue = "500ms", converter = ValueConverters.DurationConverter.class,
            description = "How long to wait for replies after sending stops (default: ${DEFAULT-VALUE}).")
    Duration linger;

    @Option(names = "--search", description = "Search for the zero-loss rate (RFC 2544 throughput): a first trial as fast "
            + "as the client sends, then a binary search on --rate; each trial lasts --duration.")
    boolean search;

    @Option(names = "--max-loss", defaultValue = "0.1%", converter = Converters.FractionConverter.class,
            description = "With --search: the loss a passing trial may have, e.g. 0.1% or 0.001 (default: ${DEFAULT-VALUE}).")
    double maxLoss;

    @Option(names = "--precision", defaultValue = "2%", converter = Converters.FractionConverter.class,
            description = "With --search: stop when the highest passing and lowest failing rates are this close, as a "
                    + "share of the failing one (default: ${DEFAULT-VALUE}).")
    double precision;

    @Option(names = "--max-trials", defaultValue = "12", converter = ValueConverters.CountConverter.class,
            description = "With --search: at most this many trials, the first included (default: ${DEFAULT-VALUE}).")
    int maxTrials;

    /** When this command started: its report's {@code run} stamp. */
    private long startMillis;

    @Override
    public Integer call() throws Exception {
        startMillis = System.currentTimeMillis();
        LengthField field;
        RateSearch searching = null;
        try {
            field = LengthField.ofWidth(lengthField);
            Checks.inRange("size", size, 1, field.largestUdpBody());
            Checks.positive("sockets", sockets);
            if (search) {
                Checks.inRange("maxLoss", maxLoss, 0, 1);
                Checks.inRange("precision", precision, 0.001, 0.5);
                Checks.inRange("maxTrials", maxTrials, 2, 100);
                searching = RateSearch.fromUnlimited().precision(precision).maxTrials(maxTrials);
            }
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
        if (search && rate > 0) {
            throw new ParameterException(commandSpec.commandLine(), "--rate and --search: the search sets the rate "
                    + "(expected: one of them)");
        }
        RunSupport.requireOneTarget(commandSpec.commandLine(), common, "udp-stream");
        PrintWriter out = commandSpec.commandLine().getOut();
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err);
                RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, field,
                        Math.max(field.defaultMaxFrame(), size), Duration.ofSeconds(30), Protocol.UDP, System.err)) {
            if (searching != null) {
                return alone.exitStatus(search(searching, target, field, alone, out));
            }
            UdpStreamSummary summary = trial(rate, target, field, alone, common.report, System.err);
            return alone.exitStatus(RunSupport.conclude(common, summary,
                    summary.bad() > 0 || summary.received() == 0 ? ExitCodes.FAILURE : ExitCodes.OK,
                    () -> printTable(summary, out), out));
        }
    }

    /** One run of the stream at {@code ratePps} (0: as fast as it can), measured by the one driver every load uses. */
    private UdpStreamSummary trial(double ratePps, RunSupport.Target target, LengthField field, StandAlone alone,
            Path report, PrintStream progress) throws InterruptedException {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", "udp-stream");
        config.put("target", target.udp().toString());
        config.put("sockets", sockets);
        config.put("size", size);
        config.put("rate", ratePps);
        config.put("duration_s", duration.toNanos() / 1e9);
        RunOptions options = new RunOptions("udp-stream", target.scrape(), report, progress, config, alone.hooks());
        // Replies still in flight when sending stops land in the last interval; rates are over the sending time.
        Schedule schedule = new Schedule(Duration.ZERO, duration, common.interval, linger);
        LoadSpec spec = LoadSpec.builder(target.udp()).protocol(Protocol.UDP).connections(sockets).rate(ratePps)
                .lengthField(field).duration(duration).timeout(linger).seed(common.seed).worker(common.workerIndex)
                .interval(common.interval).ioThreads(common.ioThreads).transport(common.io).build();
        // One body in every datagram: checking a reply is one comparison per byte.
        FrameWorkload workload = PayloadWorkload.of(Template.literalOf(Payload.body(common.seed, size)),
                Expectation.reversed());
        InetSocketAddress udp = target.udp().first();
        String where = udp.getHostString() + ":" + udp.getPort();
        try (DatagramStream stream = new DatagramStream(spec, workload)) {
            return Runs.measure(stream, schedule, options, (measured, server, written) -> Summaries.datagrams(where,
                    sockets, size, ratePps, measured, server));
        }
    }

    private int search(RateSearch searching, RunSupport.Target target, LengthField field, StandAlone alone,
            PrintWriter out) throws Exception {
        RateSearch.Result<UdpStreamSummary> result = searching.run(ratePps -> {
            UdpStreamSummary t = trial(ratePps, target, field, alone, null, null);
            boolean pass = passes(t);
            System.err.printf(Locale.ROOT, "[trial] rate %s: sent %.0f/s, received %.0f/s, loss %.3f%% -> %s%n",
                    ratePps == 0 ? "unlimited" : String.format(Locale.ROOT, "%.0f/s", ratePps), t.sentPps(),
                    t.receivedPps(), t.loss() * 100, pass ? "pass" : "fail");
            return new RateSearch.Outcome<>(t, pass, t.sentPps());
        }, alone::stopped);
        List<UdpStreamSummary> trials = result.steps().stream().map(s -> s.outcome().result()).toList();
        UdpStreamSummary best = result.best() == null ? null : result.best().outcome().result();
        String where = target.udp().first().getHostString() + ":" + target.udp().first().getPort();
        UdpSearchSummary summary = new UdpSearchSummary("udp-stream", where, trials.get(0).io(), sockets,
                size, maxLoss, precision, trials, best == null ? null : best.receivedPps(),
                best == null ? null : best.receivedBytesPerS(), result.clientLimited(),
                best == null ? "no rate kept loss within " + percent(maxLoss)
                        : result.clientLimited() ? "the client's fastest rate kept loss within " + percent(maxLoss)
                                + ": the server's zero-loss rate is higher"
                        : "zero-loss rate found");
        if (common.report != null) {
            ReportWriter.writeSummary(common.report, summary, RunMetadata.current(startMillis, summary.io()));
        }
        boolean clean = trials.stream().allMatch(t -> t.bad() == 0);
        return RunSupport.conclude(common, summary, clean && best != null ? ExitCodes.OK : ExitCodes.FAILURE,
                () -> printSearch(summary, out), out);
    }

    /** Whether a trial offered the rate asked and lost no more than the bound, with every reply verified. */
    private boolean passes(UdpStreamSummary trial) {
        return trial.sent() > 0 && trial.bad() == 0 && trial.loss() <= maxLoss && !trial.sentLessThanAsked();
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
            printWhereLost(summary, out);
        }
        if (summary.sentLessThanAsked()) {
            out.printf(Locale.ROOT, "note: sent %.0f datagrams/s of the %.0f asked (--rate): the client could not "
                    + "send faster; try more --sockets or --io-threads%n", summary.sentPps(), summary.ratePps());
        }
        out.flush();
    }

    /** Splits the loss at the server's own counts: datagrams it never read, and replies it sent that never came back. */
    private static void printWhereLost(UdpStreamSummary summary, PrintWriter out) {
        ServerSummary server = summary.server();
        if (Double.isNaN(server.framesReceived()) || Double.isNaN(server.framesSent())) {
            return;
        }
        out.printf(Locale.ROOT, "lost: %.0f on the way to the server (client sent %d, server read %.0f), %.0f on the way "
                + "back (server sent %.0f, client received %d)%n", summary.sent() - server.framesReceived(),
                summary.sent(), server.framesReceived(), server.framesSent() - summary.received(), server.framesSent(),
                summary.received());
    }

    private void printSearch(UdpSearchSummary summary, PrintWriter out) {
        out.printf(Locale.ROOT, "udp-stream --search -> %s (%s), %d socket(s), %d-byte bodies, max loss %s%n",
                summary.target(), summary.io(), summary.sockets(), summary.size(), percent(summary.maxLoss()));
        out.printf(Locale.ROOT, "%5s %12s %12s %12s %9s %12s %12s %6s%n", "trial", "rate", "sent_pps", "recv_pps",
                "loss", "srv_read", "srv_sent", "pass");
        int n = 0;
        for (UdpStreamSummary t : summary.trials()) {
            ServerSummary server = t.server();
            out.printf(Locale.ROOT, "%5d %12s %12.0f %12.0f %8.3f%% %12s %12s %6s%n", ++n,
                    t.ratePps() == 0 ? "unlimited" : String.format(Locale.ROOT, "%.0f", t.ratePps()), t.sentPps(),
                    t.receivedPps(), t.loss() * 100, server == null ? "-" : count(server.framesReceived()),
                    server == null ? "-" : count(server.framesSent()),
                    passes(t) ? "yes" : "no");
        }
        if (summary.zeroLossPps() != null) {
            out.printf(Locale.ROOT, "zero-loss rate: %.0f datagrams/s, %.0f body bytes/s (%s)%n", summary.zeroLossPps(),
                    summary.zeroLossBytesPerS(), summary.verdict());
        } else {
            out.println("zero-loss rate: none (" + summary.verdict() + ")");
        }
        out.flush();
    }

    private static String count(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.3g%%", fraction * 100);
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
