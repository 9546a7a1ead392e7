package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.report.html.HtmlReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuilds report.html from a --report directory's files (summary.json, intervals.csv, the .hlog "
                + "logs, config.json) and prints its path.")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", description = "A directory a run wrote with --report.")
    Path dir;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(dir.resolve("summary.json"))) {
            throw new ParameterException(commandSpec.commandLine(), "invalid report directory: " + dir
                    + " (expected one a run wrote with --report: it has no summary.json)");
        }
        commandSpec.commandLine().getOut().println(HtmlReport.write(dir).toAbsolutePath());
        return ExitCodes.OK;
    }
}
