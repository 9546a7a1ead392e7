package io.ricochet.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/** Runs the load generator's CLI in-process and captures what it prints on stdout. */
final class Cli {
    static final ObjectMapper JSON = new ObjectMapper();

    record Result(int exit, String out, String err) {
        /** What it printed, as JSON; a summary is checked against the one schema of every command's summary. */
        JsonNode json() {
            JsonNode json;
            try {
                json = JSON.readTree(out);
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + out + " / " + err, e);
            }
            return SummarySchema.isSummary(json) ? SummarySchema.valid(json) : json;
        }
    }

    private Cli() {
    }

    /**
     * A report's {@code summary.json} as the run printed it with {@code --json}: the file is that summary stamped with
     * {@code run} (what and where the run ran), which must be there and is taken off here.
     */
    static JsonNode summaryAsPrinted(Path dir) throws java.io.IOException {
        ObjectNode file = (ObjectNode) SummarySchema.valid(JSON.readTree(dir.resolve("summary.json").toFile()));
        if (!file.path("run").path("started_utc").isTextual()) {
            throw new AssertionError("summary.json without its run stamp: " + file);
        }
        file.remove("run");
        return file;
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = LoadGeneratorMain.newCommandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }
}
