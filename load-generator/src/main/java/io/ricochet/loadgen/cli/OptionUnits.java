package io.ricochet.loadgen.cli;

import static java.util.Map.entry;

import io.ricochet.config.ByteSizes;
import io.ricochet.config.Counts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * Which flags take a count and which a size in bytes, for every command in one table: {@code --connections 10k} is
 * 10,000 connections, {@code --size 4k} 4,096 bytes. {@link #install} gives each int, long or {@code MIN..MAX} option
 * named here the parser of its unit. Every other option, a port or a field width for instance, keeps plain numbers.
 */
final class OptionUnits {
    private enum Unit { COUNT, BYTES }

    private static final Map<String, Unit> UNITS = Map.ofEntries(
            entry("--connections", Unit.COUNT), entry("--concurrency", Unit.COUNT), entry("--pipeline", Unit.COUNT),
            entry("--in-flight", Unit.COUNT), entry("--clients", Unit.COUNT), entry("--pairs", Unit.COUNT),
            entry("--sockets", Unit.COUNT), entry("--requests", Unit.COUNT), entry("--cycles", Unit.COUNT),
            entry("--requests-per-step", Unit.COUNT), entry("--counts", Unit.COUNT),
            // The RPC commands' warmup is a count of calls; the echo commands' is a duration, which its type leaves be.
            entry("--warmup", Unit.COUNT),
            entry("--size", Unit.BYTES), entry("--max-size", Unit.BYTES), entry("--count-size", Unit.BYTES));

    private OptionUnits() {
    }

    /** The flags of the table, for a test that each still names an option. */
    static List<String> flags() {
        return List.copyOf(UNITS.keySet());
    }

    /** Gives the options of {@code cli} and all its subcommands the parser of their unit. */
    static void install(CommandLine cli) {
        CommandSpec spec = cli.getCommandSpec();
        List<OptionSpec> options = new ArrayList<>(spec.options());
        List<OptionSpec> withUnits = options.stream().map(OptionUnits::withUnit).toList();
        for (int i = 0; i < options.size(); i++) {
            if (withUnits.get(i) != options.get(i)) {
                // picocli's options cannot change their converter: the rest are removed and added again in their
                // order, so --help lists them as before.
                options.subList(i, options.size()).stream().filter(o -> o.group() == null).forEach(spec::remove);
                withUnits.subList(i, options.size()).stream().filter(o -> o.group() == null).forEach(spec::addOption);
                break;
            }
        }
        cli.getSubcommands().values().forEach(OptionUnits::install);
    }

    private static OptionSpec withUnit(OptionSpec option) {
        Unit unit = UNITS.get(option.longestName());
        ITypeConverter<?> converter = unit == null ? null : converter(unit, option.type());
        return converter == null ? option : option.toBuilder().converters(converter).build();
    }

    private static ITypeConverter<?> converter(Unit unit, Class<?> type) {
        boolean count = unit == Unit.COUNT;
        if (type == int.class || type == Integer.class) {
            return parsing(count ? Counts::parseInt : ByteSizes::parseInt);
        }
        if (type == long.class || type == Long.class) {
            return parsing(count ? Counts::parseLong : ByteSizes::parseLong);
        }
        if (type == Converters.SizeRange.class) {
            return count ? new Converters.CountRangeConverter() : new Converters.SizeConverter();
        }
        return null;
    }

    private static <T> ITypeConverter<T> parsing(Function<String, T> parse) {
        return value -> {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        };
    }
}
