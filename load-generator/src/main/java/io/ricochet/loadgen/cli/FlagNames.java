package io.ricochet.loadgen.cli;

import io.ricochet.commandline.UsageErrors;
import io.ricochet.config.InvalidValueException;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.ScenarioKeys;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The flag of each scenario key, so that a usage error names what the user typed ({@code --size 70000}) rather than
 * the key that checked it ({@code workload.size: 70000}), as {@link ScenarioKeys#flag} names it.
 */
final class FlagNames {
    private FlagNames() {
    }

    /** The flag that sets {@code key} on {@code command}, as its command line spells it. */
    static String of(Command command, String key) {
        return ScenarioKeys.flag(command, key);
    }

    /** The flag of {@code key} if {@code spec}'s command has it, else the key as it is. */
    static String name(CommandSpec spec, Command command, String key) {
        String flag = of(command, key);
        return spec.findOption(flag) != null ? flag : key;
    }

    /**
     * A scenario's refusal as a usage error: {@code invalid option value: --size 70000 (expected: 1..65535)}, each key
     * it names as the flag of {@code spec}'s command; a scenario that asks for nothing to run, without the prefix.
     */
    static ParameterException usage(CommandSpec spec, Command command, IllegalArgumentException e) {
        if (e instanceof ScenarioException s) {
            String message = s.render(key -> name(spec, command, key));
            return s.invalidValue() ? UsageErrors.invalidValue(spec.commandLine(), message)
                    : new ParameterException(spec.commandLine(), message);
        }
        if (e instanceof InvalidValueException v) {
            String flag = of(command, v.field());
            if (spec.findOption(flag) != null) {
                return UsageErrors.invalidValue(spec.commandLine(), v.describe(flag));
            }
        }
        return UsageErrors.invalidValue(spec.commandLine(), e.getMessage());
    }
}
