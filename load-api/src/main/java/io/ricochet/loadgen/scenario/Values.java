package io.ricochet.loadgen.scenario;

import io.ricochet.config.Counts;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.engine.Stages;
import io.ricochet.transport.Protocol;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load generator's own value forms, read the same way from a flag and from a scenario file; each failure is an
 * {@link IllegalArgumentException} naming the value and every form it may take. The framework's units (durations,
 * byte sizes, counts) are read by {@code io.ricochet.config}.
 *
 * <pre>{@code
 * double perSecond = Values.rate("1.5k/s");               // 1500.0
 * double share = Values.fraction("0.1%");                  // 0.001
 * Stages shape = Values.stages("0:10s,20k:30s,20k:1m");   // ramp up to 20k/s over 40 s, hold a minute
 * List<InetAddress> from = Values.sourceAddresses("127.0.0.2-127.0.0.4");
 * }</pre>
 */
public final class Values {
    /** The most addresses one range of source addresses may give. */
    static final int MAX_ADDRESS_RANGE = 1 << 16;

    private Values() {
    }

    /** A rate such as {@code 5000}, {@code 10k}, {@code 0.04}, {@code 1.5k/s} or {@code 10/m}, per second. */
    public static double rate(String value) {
        String v = value.strip();
        String per = v.length() > 2 ? v.substring(v.length() - 2).toLowerCase(Locale.ROOT) : "";
        boolean perUnit = per.equals("/s") || per.equals("/m");
        try {
            double rate = Counts.parseDecimal(perUnit ? v.substring(0, v.length() - 2) : v) / (per.equals("/m") ? 60 : 1);
            if (rate >= 0 && Double.isFinite(rate)) {
                return rate;
            }
        } catch (IllegalArgumentException e) {
            // The message below names the value and every form.
        }
        throw new IllegalArgumentException("rate: " + value + " (expected: e.g. 5000, 10k, 1.5k/s, 0.04/s, 10/m)");
    }

    private static final String STAGES_EXPECTED = "TARGET:DURATION[:step],... with rates or connections, e.g. "
            + "0:10s,20k:30s,20k:1m or 5k:30s:step,10k:30s:step or 1000conns:30s,1000conns:5m";

    /**
     * A load's stages: {@code TARGET:DURATION[:step]}, comma-separated. Each target is a rate as {@link #rate} reads
     * it ({@code 20k}, {@code 500/s}), or a count of connections written {@code 100conns}; all of one kind. A stage
     * ramps from the previous target (the first from 0) over its duration, or with {@code :step} holds its own.
     */
    public static Stages stages(String value) {
        String v = value.strip();
        if (v.isEmpty()) {
            throw new IllegalArgumentException("stages: none (expected: " + STAGES_EXPECTED + ")");
        }
        List<Stages.Stage> list = new ArrayList<>();
        Stages.Kind kind = null;
        for (String part : v.split(",", -1)) {
            String[] fields = part.strip().split(":", -1);
            boolean step = fields.length == 3 && fields[2].strip().equalsIgnoreCase("step");
            if (fields.length < 2 || fields.length > 3 || (fields.length == 3 && !step)) {
                throw new IllegalArgumentException("stages: " + part.strip() + " (expected: " + STAGES_EXPECTED + ")");
            }
            String target = fields[0].strip().toLowerCase(Locale.ROOT);
            Stages.Kind stageKind = target.endsWith("conns") || target.endsWith("conn") ? Stages.Kind.CONNECTIONS
                    : Stages.Kind.RATE;
            // A bare 0 is nothing of either kind: 0:10s,100conns:30s idles, then opens connections.
            boolean either = target.equals("0");
            if (kind != null && kind != stageKind && !either) {
                throw new IllegalArgumentException("stages: " + v + " (expected: all rates or all connections)");
            }
            kind = either ? kind : stageKind;
            try {
                double amount = stageKind == Stages.Kind.RATE ? rate(target)
                        : Counts.parseLong(target.substring(0, target.length() - (target.endsWith("conns") ? 5 : 4)));
                list.add(new Stages.Stage(amount, Durations.parse(fields[1]), step));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("stages: " + part.strip() + " (expected: " + STAGES_EXPECTED
                        + "; a duration > 0)");
            }
        }
        try {
            return Stages.of(kind == null ? Stages.Kind.RATE : kind, list);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("stages: " + v + " (expected: " + STAGES_EXPECTED
                    + "; at least one target above 0, at most " + Stages.MAX_STAGES + " stages)");
        }
    }

    /** A share of a whole, {@code 0.1%} or {@code 0.001}: 0 up to 1 (100%). */
    public static double fraction(String value) {
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
        throw new IllegalArgumentException("fraction: " + value + " (expected: 0..1 or 0%..100%, e.g. 0.1% or 0.001)");
    }

    /** A server's metrics URL: absolute, http(s), with a host, e.g. {@code http://127.0.0.1:9100/metrics}. */
    public static URI metricsUrl(String value) {
        try {
            URI uri = new URI(value);
            if (("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // Reported below, as any other URL that is not one.
        }
        throw new IllegalArgumentException("'" + value + "' (expected: an http:// or https:// URL with a host, e.g. "
                + "http://127.0.0.1:9100/metrics)");
    }

    /** {@code tcp}, {@code udp} or {@code quic}. */
    public static Protocol protocol(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "tcp" -> Protocol.TCP;
            case "udp" -> Protocol.UDP;
            case "quic" -> Protocol.QUIC;
            default -> throw new IllegalArgumentException("transport: " + value + " (expected: tcp, udp or quic)");
        };
    }

    /** {@code a,b,c}, or a range {@code 127.0.0.2-127.0.0.40} of IPv4 addresses, or both; in order. */
    public static List<InetAddress> sourceAddresses(String value) {
        List<InetAddress> out = new ArrayList<>();
        try {
            for (String part : value.split(",")) {
                String p = part.trim();
                int dash = p.indexOf('-');
                if (dash > 0) {
                    long from = ipv4(InetAddress.getByName(p.substring(0, dash)));
                    long to = ipv4(InetAddress.getByName(p.substring(dash + 1)));
                    if (to < from || to - from >= MAX_ADDRESS_RANGE) {
                        throw new IllegalArgumentException("source-addresses: " + p
                                + " (expected: an ascending IPv4 range of at most 65536 addresses)");
                    }
                    if (out.size() + (to - from + 1) > MAX_ADDRESS_RANGE) {
                        // Bounded in all, not only per range: many ranges would otherwise add up to billions.
                        throw new IllegalArgumentException("source-addresses: " + value.length() + " characters of "
                                + "addresses (expected: at most 65536 addresses in all)");
                    }
                    for (long a = from; a <= to; a++) {
                        out.add(InetAddress.getByAddress(new byte[] {
                            (byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a}));
                    }
                } else {
                    if (out.size() >= MAX_ADDRESS_RANGE) {
                        throw new IllegalArgumentException("source-addresses: " + value.length() + " characters of "
                                + "addresses (expected: at most 65536 addresses in all)");
                    }
                    out.add(InetAddress.getByName(p));
                }
            }
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("source-addresses: " + value + " (" + e.getMessage() + ")");
        }
        return List.copyOf(out);
    }

    private static long ipv4(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length != 4) {
            throw new IllegalArgumentException("source-addresses: " + a.getHostAddress() + " (ranges are IPv4 only)");
        }
        return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
    }
}
