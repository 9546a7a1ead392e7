package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.report.html.ComparePage;
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
                + "JVM or cores differ from the first's.")
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", arity = "2..*", description = "Report directories; the first is the baseline.")
    List<Path> dirs;

    @Option(names = "--out", defaultValue = "compare.html", description = "The page to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() {
        for (Path dir : dirs) {
            if (!Files.isRegularFile(dir.resolve("summary.json"))) {
                throw new ParameterException(commandSpec.commandLine(), "invalid report directory: " + dir
                        + " (expected one a run wrote with --report: it has no summary.json)");
            }
        }
        ComparePage.write(dirs, out).forEach(w -> commandSpec.commandLine().getErr().println("warning: " + w));
        commandSpec.commandLine().getOut().println(out.toAbsolutePath());
        return ExitCodes.OK;
    }
}
