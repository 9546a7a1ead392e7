package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
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
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.loadgen.scenario.UdpStreamSettings;
import io.ricochet.loadgen.scenario.WorkloadSettings;
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
import java.util.function.Predicate;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "udp-stream", mixinStandardHelpOptions = true, sortOptions = false,
        description = "UDP packet rate and bandwidth (UCloud's test, netperf UDP_STREAM with replies): blast datagrams "
                + "of --size (1 for pps, 1400 for bandwidth) for --duration; report sent and received pps, bytes/s, loss. "
                + "With --search, RFC 2544's throughput: the highest rate whose loss stays within --max-loss.")
final class UdpStreamCommand extends LoadCommand {
    @Option(names = "--size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "1", description = "Body bytes per datagram (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--sockets", converter = ValueConverters.CountConverter.class, defaultValue = "1", description = "Sending sockets (default: ${DEFAULT-VALUE}).")
    int sockets;

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

    @Override
    Command command() {
        return Command.UDP_STREAM;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--size")) {
            WorkloadSettings w = b.workload();
            b.workload(new WorkloadSettings(w.name(), w.jars(), w.params(), w.payload(), w.expect(), SizeRange.of(size),
                    w.proto(), w.method(), w.requestType(), w.responseType(), w.data(), w.expectStatus()));
        }
        if (given.test("--rate")) {
            b.rate(rate);
        }
        if (given.test("--length-field")) {
            b.lengthField(LoadOptions.lengthField(lengthField));
        }
        if (given.test("--duration")) {
            b.duration(duration);
        }
        UdpStreamSettings u = b.udpStream();
        b.udpStream(new UdpStreamSettings(given.test("--sockets") ? sockets : u.sockets(),
                given.test("--linger") ? linger : u.linger(), given.test("--search") ? search : u.search(),
                given.test("--max-loss") ? maxLoss : u.maxLoss(), given.test("--precision") ? precision : u.precision(),
                given.test("--max-trials") ? maxTrials : u.maxTrials()));
    }

    /** When this command started: its report's {@code run} stamp. */
    private long startMillis;

    @Override
    int runAlone(Scenario s, StandAlone alone) throws Exception {
        startMillis = System.currentTimeMillis();
        UdpStreamSettings u = s.udpStream();
        PrintWriter out = commandSpec.commandLine().getOut();
        try (EmbeddedTargets.Target target = EmbeddedTargets.resolve(s, null, System.err)) {
            Scenario resolved = target.scenario();
            if (u.search()) {
                RateSearch searching = RateSearch.fromUnlimited().precision(u.precision()).maxTrials(u.maxTrials());
                return search(searching, resolved, target.scrape(), alone, out);
            }
            UdpStreamSummary summary = trial(s.rate(), resolved, target.scrape(), alone, s.report(), System.err);
            return RunSupport.conclude(s, alone.live(), summary,
                    summary.bad() > 0 || summary.received() == 0 ? ExitCodes.FAILURE : ExitCodes.OK,
                    () -> printTable(summary, resolved, out), out);
        }
    }

    /** One run of the stream at {@code ratePps} (0: as fast as it can), measured by the one driver every load uses. */
    private static UdpStreamSummary trial(double ratePps, Scenario s, List<java.net.URI> scrape, StandAlone alone,
            Path report, PrintStream progress) throws InterruptedException {
        UdpStreamSettings u = s.udpStream();
        int size = s.bodySize().max();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", "udp-stream");
        config.put("target", s.target().toString());
        config.put("sockets", u.sockets());
        config.put("size", size);
        config.put("rate", ratePps);
        config.put("duration_s", s.duration().toNanos() / 1e9);
        RunOptions options = new RunOptions("udp-stream", scrape, report, progress, config, alone.hooks());
        // Replies still in flight when sending stops land in the last interval; rates are over the sending time.
        Schedule schedule = new Schedule(Duration.ZERO, s.duration(), s.interval(), u.linger());
        LoadSpec spec = LoadSpec.builder(s.target()).protocol(Protocol.UDP).connections(u.sockets()).rate(ratePps)
                .lengthField(s.lengthField()).duration(s.duration()).timeout(u.linger()).seed(s.seed())
                .worker(s.worker()).interval(s.interval()).ioThreads(s.ioThreads()).transport(s.io()).build();
        // One body in every datagram: checking a reply is one comparison per byte.
        FrameWorkload workload = PayloadWorkload.of(Template.literalOf(Payload.body(s.seed(), size)),
                Expectation.reversed());
        InetSocketAddress udp = s.target().first();
        String where = udp.getHostString() + ":" + udp.getPort();
        try (DatagramStream stream = new DatagramStream(spec, workload)) {
            return Runs.measure(stream, schedule, options, (measured, server, written) -> Summaries.datagrams(where,
                    u.sockets(), size, ratePps, measured, server));
        }
    }

    private int search(RateSearch searching, Scenario s, List<java.net.URI> scrape, StandAlone alone,
            PrintWriter out) throws Exception {
        double maxLoss = s.udpStream().maxLoss();
        RateSearch.Result<UdpStreamSummary> result = searching.run(ratePps -> {
            UdpStreamSummary t = trial(ratePps, s, scrape, alone, null, null);
            boolean pass = passes(t, maxLoss);
            System.err.printf(Locale.ROOT, "[trial] rate %s: sent %.0f/s, received %.0f/s, loss %.3f%% -> %s%n",
                    ratePps == 0 ? "unlimited" : String.format(Locale.ROOT, "%.0f/s", ratePps), t.sentPps(),
                    t.receivedPps(), t.loss() * 100, pass ? "pass" : "fail");
            return new RateSearch.Outcome<>(t, pass, t.sentPps());
        }, alone::stopped);
        List<UdpStreamSummary> trials = result.steps().stream().map(step -> step.outcome().result()).toList();
        UdpStreamSummary best = result.best() == null ? null : result.best().outcome().result();
        String where = s.target().first().getHostString() + ":" + s.target().first().getPort();
        UdpSearchSummary summary = new UdpSearchSummary("udp-stream", where, trials.get(0).io(), s.udpStream().sockets(),
                s.bodySize().max(), maxLoss, s.udpStream().precision(), trials, best == null ? null : best.receivedPps(),
                best == null ? null : best.receivedBytesPerS(), result.clientLimited(),
                best == null ? "no rate kept loss within " + percent(maxLoss)
                        : result.clientLimited() ? "the client's fastest rate kept loss within " + percent(maxLoss)
                                + ": the server's zero-loss rate is higher"
                        : "zero-loss rate found");
        if (s.report() != null) {
            ReportWriter.writeSummary(s.report(), summary, RunMetadata.current(startMillis, summary.io()));
        }
        boolean clean = trials.stream().allMatch(t -> t.bad() == 0);
        return RunSupport.conclude(s, alone.live(), summary, clean && best != null ? ExitCodes.OK : ExitCodes.FAILURE,
                () -> printSearch(summary, out), out);
    }

    /** Whether a trial offered the rate asked and lost no more than the bound, with every reply verified. */
    private static boolean passes(UdpStreamSummary trial, double maxLoss) {
        return trial.sent() > 0 && trial.bad() == 0 && trial.loss() <= maxLoss && !trial.sentLessThanAsked();
    }

    private static void printTable(UdpStreamSummary summary, Scenario s, PrintWriter out) {
        int sockets = s.udpStream().sockets();
        int size = s.bodySize().max();
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
                    passes(t, summary.maxLoss()) ? "yes" : "no");
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
