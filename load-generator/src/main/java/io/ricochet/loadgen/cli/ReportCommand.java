package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.files.InputFileException;
import io.ricochet.loadgen.report.html.HtmlReport;
import io.ricochet.loadgen.report.html.RebuiltSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuilds report.html from a --report directory's files (summary.json, intervals.csv, the .hlog "
                + "logs, config.json) and prints its path. A run that did not finish (killed) left no summary.json: "
                + "one is rebuilt from its intervals and .hlog logs, and a line on stderr says so.")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", description = "A directory a run wrote with --report.")
    Path dir;

    @Override
    public Integer call() {
        try {
            return draw();
        } catch (InputFileException e) {
            // A file of the directory that is huge, or not a file: refused by name, as a wrong argument is.
            throw new ParameterException(commandSpec.commandLine(), "report: " + e.getMessage());
        }
    }

    private int draw() {
        Path page;
        if (Files.isRegularFile(dir.resolve("summary.json"))) {
            page = HtmlReport.write(dir);
        } else {
            RebuiltSummary rebuilt;
            try {
                rebuilt = RebuiltSummary.of(dir);
            } catch (InputFileException e) {
                // Said as every refused file of the directory is, by call().
                throw e;
            } catch (IllegalArgumentException e) {
                throw new ParameterException(commandSpec.commandLine(), "invalid " + e.getMessage());
            }
            commandSpec.commandLine().getErr().println(rebuilt.note());
            commandSpec.commandLine().getErr().flush();
            page = HtmlReport.write(dir, rebuilt.json());
        }
        commandSpec.commandLine().getOut().println(page.toAbsolutePath());
        return ExitCodes.OK;
    }
}
