package io.ricochet.commandline;

import io.ricochet.config.InvalidValueException;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Turns a configuration record's refusal into a usage error that names what the user typed ({@code --max-frame 0})
 * rather than the field that checked it ({@code maxFrame: 0}); picocli prints it in one line with exit status
 * {@link ExitCodes#USAGE}.
 *
 * <pre>{@code
 * try {
 *     config = ServerConfig.builder().maxFrame(maxFrame).build();
 * } catch (IllegalArgumentException e) {
 *     throw UsageErrors.invalidValue(spec.commandLine(), e, Map.of("maxFrame", "--max-frame")::get);
 * }
 * }</pre>
 */
public final class UsageErrors {
    private UsageErrors() {
    }

    /**
     * {@code invalid option value: --max-frame 0 (expected: 1..65535)}, the flag found by {@code flagOfField} from the
     * field an {@link InvalidValueException} names; any other message, or a field with no flag, as it is.
     */
    public static ParameterException invalidValue(CommandLine cli, IllegalArgumentException e,
            Function<String, String> flagOfField) {
        String flag = e instanceof InvalidValueException invalid ? flagOfField.apply(invalid.field()) : null;
        return invalidValue(cli, flag != null ? ((InvalidValueException) e).describe(flag) : e.getMessage());
    }

    /** {@code invalid option value: } and {@code message}: {@code --tls-ca x with --insecure (expected: ...)}. */
    public static ParameterException invalidValue(CommandLine cli, String message) {
        return new ParameterException(cli, "invalid option value: " + message);
    }
}
