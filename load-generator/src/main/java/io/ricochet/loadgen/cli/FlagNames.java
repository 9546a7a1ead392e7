package io.ricochet.loadgen.cli;

import io.ricochet.commandline.UsageErrors;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The flag each validated field comes from, so that a usage error names what the user typed ({@code --size 70000})
 * rather than the field of {@code LoadSpec} or of the RPC run it checked ({@code minSize: 70000}).
 */
final class FlagNames {
    /** A field that commands take under different flags lists each; the one the failing command has is named. */
    private static final Map<String, List<String>> FLAGS = Map.ofEntries(
            Map.entry("connections", List.of("--connections", "--concurrency")),
            Map.entry("connectRate", List.of("--connect-rate")),
            Map.entry("pipeline", List.of("--pipeline")),
            Map.entry("rate", List.of("--rate")),
            Map.entry("perConnectionRate", List.of("--per-connection-rate")),
            Map.entry("minSize", List.of("--size")),
            Map.entry("maxSize", List.of("--size", "--max-size")),
            Map.entry("requestsPerStep", List.of("--requests-per-step")),
            Map.entry("sockets", List.of("--sockets")),
            Map.entry("startRate", List.of("--start-rate")),
            Map.entry("factor", List.of("--factor")),
            Map.entry("refine", List.of("--refine")),
            Map.entry("size", List.of("--size")),
            // The embedded server's max frame is sized from --size.
            Map.entry("maxFrame", List.of("--size")),
            Map.entry("lengthField", List.of("--length-field")),
            Map.entry("duration", List.of("--duration")),
            Map.entry("warmup", List.of("--warmup")),
            Map.entry("timeout", List.of("--timeout")),
            Map.entry("interval", List.of("--interval")),
            Map.entry("ioThreads", List.of("--io-threads")),
            Map.entry("clients", List.of("--clients", "--pairs")),
            Map.entry("requests", List.of("--requests", "--cycles")),
            Map.entry("inFlight", List.of("--in-flight")),
            Map.entry("maxLoss", List.of("--max-loss")),
            Map.entry("precision", List.of("--precision")),
            Map.entry("maxTrials", List.of("--max-trials")));

    private FlagNames() {
    }

    /** {@code invalid option value: --size 70000 (expected: 1..65535)}; a message about no one flag as it is. */
    static ParameterException usage(CommandSpec command, IllegalArgumentException e) {
        return UsageErrors.invalidValue(command.commandLine(), e, field -> flag(command, field));
    }

    private static String flag(CommandSpec command, String field) {
        return FLAGS.getOrDefault(field, List.of()).stream().filter(f -> command.findOption(f) != null).findFirst()
                .orElse(null);
    }
}
