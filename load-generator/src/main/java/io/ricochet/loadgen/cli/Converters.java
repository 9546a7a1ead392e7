package io.ricochet.loadgen.cli;

import io.ricochet.config.ByteSizes;
import io.ricochet.config.Counts;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.transport.Protocol;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parsers for the load generator's own option values; each failure is one line naming the value. The framework's units
 * (durations, byte sizes, counts, I/O transports) are parsed by the shared {@code ValueConverters}.
 */
final class Converters {
    private Converters() {
    }

    static final class ThresholdConverter implements ITypeConverter<io.ricochet.loadgen.report.threshold.Threshold> {
        @Override
        public io.ricochet.loadgen.report.threshold.Threshold convert(String value) {
            try {
                return io.ricochet.loadgen.report.threshold.Threshold.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** One {@code HOST:PORT}, such as the controller's address. */
    static final class AddressConverter implements ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String value) {
            Targets one = new TargetConverter().convert(value);
            if (one.size() != 1) {
                throw new TypeConversionException("address: " + value + " (expected: one HOST:PORT)");
            }
            return one.first();
        }
    }

    static final class TargetConverter implements ITypeConverter<Targets> {
        @Override
        public Targets convert(String value) {
            try {
                return Targets.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class ProtocolConverter implements ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "tcp" -> Protocol.TCP;
                case "udp" -> Protocol.UDP;
                case "quic" -> Protocol.QUIC;
                default -> throw new TypeConversionException("transport: " + value + " (expected: tcp, udp or quic)");
            };
        }
    }

    /** A body size range. */
    record SizeRange(int min, int max) {
    }

    /** Local addresses to bind, in order. */
    record SourceAddresses(List<InetAddress> addresses) {
    }

    /** Body bytes, {@code N} or {@code MIN..MAX}, in {@link ByteSizes}' units: {@code 64}, {@code 4k}, {@code 1k..4k}. */
    static final class SizeConverter implements ITypeConverter<SizeRange> {
        @Override
        public SizeRange convert(String value) {
            return range(value, ByteSizes::parseInt, "size",
                    "bytes N or MIN..MAX, 1 <= MIN <= MAX, e.g. 64, 4k, 1MB, 1k..4k");
        }
    }

    /** A count, {@code N} or {@code MIN..MAX}, in {@link Counts}' units: {@code 100}, {@code 10k}, {@code 1k..10k}. */
    static final class CountRangeConverter implements ITypeConverter<SizeRange> {
        @Override
        public SizeRange convert(String value) {
            return range(value, Counts::parseInt, "counts", "N or MIN..MAX, 1 <= MIN <= MAX, e.g. 100, 10k, 1k..10k");
        }
    }

    private static SizeRange range(String value, ToIntFunction<String> parse, String name, String expected) {
        try {
            int dots = value.indexOf("..");
            int min = parse.applyAsInt(dots < 0 ? value : value.substring(0, dots));
            int max = dots < 0 ? min : parse.applyAsInt(value.substring(dots + 2));
            if (min >= 1 && max >= min) {
                return new SizeRange(min, max);
            }
        } catch (IllegalArgumentException e) {
            // The message below names the whole value and every form.
        }
        throw new TypeConversionException(name + ": " + value + " (expected: " + expected + ")");
    }

    /** A rate such as {@code 5000}, {@code 10k}, {@code 0.04}, {@code 1.5k/s} or {@code 10/m}: {@link Counts}, per s or m. */
    static final class RateConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String v = value.strip();
            String per = v.length() > 2 ? v.substring(v.length() - 2).toLowerCase(Locale.ROOT) : "";
            boolean perUnit = per.equals("/s") || per.equals("/m");
            try {
                double rate = Counts.parseDecimal(perUnit ? v.substring(0, v.length() - 2) : v)
                        / (per.equals("/m") ? 60 : 1);
                if (rate >= 0 && Double.isFinite(rate)) {
                    return rate;
                }
            } catch (IllegalArgumentException e) {
                // The message below names the value and every form.
            }
            throw new TypeConversionException("rate: " + value + " (expected: e.g. 5000, 10k, 1.5k/s, 0.04/s, 10/m)");
        }
    }

    /** A share of a whole, {@code 0.1%} or {@code 0.001}: 0 up to 1 (100%). */
    static final class FractionConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String v = value.strip();
            boolean percent = v.endsWith("%");
            try {
                double fraction = Double.parseDouble(percent ? v.substring(0, v.length() - 1) : v) / (percent ? 100 : 1);
                if (fraction >= 0 && fraction <= 1) {
                    return fraction;
                }
            } catch (NumberFormatException e) {
                // The message below names the value and both forms.
            }
            throw new TypeConversionException("fraction: " + value + " (expected: 0..1 or 0%..100%, e.g. 0.1% or 0.001)");
        }
    }

    /** {@code a,b,c} or a range {@code 127.0.0.2-127.0.0.40} of IPv4 addresses. */
    static final class SourceAddressesConverter implements ITypeConverter<SourceAddresses> {
        private static final int MAX_RANGE = 1 << 16;

        @Override
        public SourceAddresses convert(String value) {
            List<InetAddress> out = new ArrayList<>();
            try {
                for (String part : value.split(",")) {
                    String p = part.trim();
                    int dash = p.indexOf('-');
                    if (dash > 0) {
                        long from = ipv4(InetAddress.getByName(p.substring(0, dash)));
                        long to = ipv4(InetAddress.getByName(p.substring(dash + 1)));
                        if (to < from || to - from >= MAX_RANGE) {
                            throw new TypeConversionException("source-addresses: " + p
                                    + " (expected: an ascending IPv4 range of at most 65536 addresses)");
                        }
                        for (long a = from; a <= to; a++) {
                            out.add(InetAddress.getByAddress(new byte[] {
                                (byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a}));
                        }
                    } else {
                        out.add(InetAddress.getByName(p));
                    }
                }
            } catch (UnknownHostException e) {
                throw new TypeConversionException("source-addresses: " + value + " (" + e.getMessage() + ")");
            }
            return new SourceAddresses(List.copyOf(out));
        }

        private static long ipv4(InetAddress a) {
            byte[] b = a.getAddress();
            if (b.length != 4) {
                throw new TypeConversionException("source-addresses: " + a.getHostAddress() + " (ranges are IPv4 only)");
            }
            return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
        }
    }
}
