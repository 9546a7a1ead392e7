package io.ricochet.loadgen.cli;

import io.ricochet.commandline.UsageErrors;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The flag each validated field comes from, so that a usage error names what the user typed ({@code --size 70000})
 * rather than the field of {@code LoadSpec} or of the RPC run it checked ({@code minSize: 70000}).
 */
final class FlagNames {
    /** Fields whose flag is their name in kebab case: {@code connectRate} comes from {@code --connect-rate}. */
    private static final Set<String> SAME_NAME = Set.of("connectRate", "pipeline", "rate", "perConnectionRate",
            "requestsPerStep", "sockets", "startRate", "factor", "refine", "size", "lengthField", "duration", "warmup",
            "timeout", "interval", "ioThreads", "inFlight", "maxLoss", "precision", "maxTrials");

    /** A field that commands take under other flags lists each; the one the failing command has is named. */
    private static final Map<String, List<String>> OTHER_NAMES = Map.of(
            "connections", List.of("--connections", "--concurrency"),
            "minSize", List.of("--size"),
            "maxSize", List.of("--size", "--max-size"),
            // The embedded server's max frame is sized from --size.
            "maxFrame", List.of("--size"),
            "clients", List.of("--clients", "--pairs"),
            "requests", List.of("--requests", "--cycles"));

    private FlagNames() {
    }

    /** {@code invalid option value: --size 70000 (expected: 1..65535)}; a message about no one flag as it is. */
    static ParameterException usage(CommandSpec command, IllegalArgumentException e) {
        return UsageErrors.invalidValue(command.commandLine(), e, field -> flag(command, field));
    }

    private static String flag(CommandSpec command, String field) {
        return flags(field).stream().filter(f -> command.findOption(f) != null).findFirst().orElse(null);
    }

    /** The flags {@code field} may come from, or none for a field that no flag sets alone. */
    private static List<String> flags(String field) {
        if (SAME_NAME.contains(field)) {
            return List.of("--" + field.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT));
        }
        return OTHER_NAMES.getOrDefault(field, List.of());
    }
}
