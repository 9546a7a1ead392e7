package io.ricochet.commandline;

import io.ricochet.config.ByteSizes;
import io.ricochet.config.Counts;
import io.ricochet.config.Durations;
import io.ricochet.config.TransportKind;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli converters for the framework's units, as both programs' flags take them; a value that does not parse is one
 * line naming it ({@code duration: 5 (expected: a number with a unit, ...)}), never a stack trace.
 *
 * <pre>{@code
 * @Option(names = "--idle-timeout", converter = ValueConverters.DurationConverter.class)
 * Duration idleTimeout;
 * }</pre>
 */
public final class ValueConverters {
    private ValueConverters() {
    }

    /** A duration as {@link Durations} reads it: {@code 500ms}, {@code 2s}, {@code 10m}. */
    public static final class DurationConverter extends Parsing<Duration> {
        public DurationConverter() {
            super(Durations::parse);
        }
    }

    /** A number of bytes as {@link ByteSizes} reads it: {@code 1400}, {@code 64k}, {@code 16MB}. */
    public static final class ByteSizeConverter extends Parsing<Integer> {
        public ByteSizeConverter() {
            super(ByteSizes::parseInt);
        }
    }

    /** A count as {@link Counts} reads it: {@code 500}, {@code 100k}, {@code 1.5k}. */
    public static final class CountConverter extends Parsing<Integer> {
        public CountConverter() {
            super(Counts::parseInt);
        }
    }

    /** As {@link CountConverter}, for counts that may pass 2^31: requests, cycles. */
    public static final class LongCountConverter extends Parsing<Long> {
        public LongCountConverter() {
            super(Counts::parseLong);
        }
    }

    /** An I/O transport by its label: {@code auto}, {@code io_uring}, {@code epoll} or {@code nio}. */
    public static final class TransportKindConverter extends Parsing<TransportKind> {
        public TransportKindConverter() {
            super(TransportKind::fromLabel);
        }
    }

    /**
     * A converter that is one parse function: its {@link IllegalArgumentException} becomes picocli's one line.
     * {@code class RateConverter extends Parsing<Double> { RateConverter() { super(Values::rate); } }}
     */
    public abstract static class Parsing<T> implements ITypeConverter<T> {
        private final Function<String, T> parse;

        protected Parsing(Function<String, T> parse) {
            this.parse = parse;
        }

        @Override
        public final T convert(String value) {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
