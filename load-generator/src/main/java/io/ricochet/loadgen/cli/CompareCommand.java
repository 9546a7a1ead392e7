package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.html.ComparePage;
import io.ricochet.loadgen.report.threshold.Margin;
import io.ricochet.loadgen.report.threshold.Thresholds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "One HTML page comparing runs from their --report directories: latency spectra and QPS over "
                + "time overlaid, and a table of QPS, p50, p99, max, errors and server CPU with each run's change "
                + "against the first. Prints the page's path, and a warning on stderr for each run whose Ricochet version, "
                + "JVM or cores differ from the first's; with --fail-if, each margin's verdict, exiting 99 on a "
                + "broken one.")
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", arity = "2..*", description = "Report directories; the first is the baseline.")
    List<Path> dirs;

    @Option(names = "--out", defaultValue = "compare.html", description = "The page to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--fail-if", paramLabel = "MARGIN", description = "A regression gate, repeatable: p99>+10% fails "
            + "when a run's p99 is more than 10% above the first's, qps<-5% when its QPS is more than 5% below. Each "
            + "run after the first is judged; any broken margin exits 99.")
    List<String> failIf = List.of();

    @Override
    public Integer call() throws java.io.IOException {
        List<Margin> margins = new java.util.ArrayList<>();
        for (String expression : failIf) {
            try {
                margins.add(Margin.parse(expression));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(commandSpec.commandLine(), "invalid option value: --" + e.getMessage());
            }
        }
        for (Path dir : dirs) {
            if (!Files.isRegularFile(dir.resolve("summary.json"))) {
                throw new ParameterException(commandSpec.commandLine(), "invalid report directory: " + dir
                        + " (expected one a run wrote with --report: it has no summary.json)");
            }
        }
        ComparePage.write(dirs, out).forEach(w -> commandSpec.commandLine().getErr().println("warning: " + w));
        java.io.PrintWriter stdout = commandSpec.commandLine().getOut();
        stdout.println(out.toAbsolutePath());
        boolean broken = false;
        JsonNode baseline = ReportWriter.readSummary(dirs.get(0));
        for (Path dir : dirs.subList(1, dirs.size())) {
            JsonNode run = ReportWriter.readSummary(dir);
            for (Margin margin : margins) {
                Margin.Result r = margin.check(baseline, run);
                stdout.println(dir + ": " + r.line());
                broken |= !r.passed();
            }
        }
        stdout.flush();
        return broken ? Thresholds.BROKEN_EXIT : ExitCodes.OK;
    }
}
