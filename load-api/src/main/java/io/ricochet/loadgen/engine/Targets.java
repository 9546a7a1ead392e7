package io.ricochet.loadgen.engine;

import io.ricochet.config.InvalidValueException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The servers a load spreads its connections over, in order: connection {@code i} goes to server {@code i mod n}, so
 * each gets an equal share. Written {@code HOST:PORT[-PORT],...}, e.g. {@code 127.0.0.1:7000-7005,10.0.0.5:7000}.
 */
public record Targets(List<InetSocketAddress> addresses) {
    /** More servers than one run may name: far past one per port of a host, and bounded before anything is built. */
    public static final int MAX = 65_536;

    public Targets {
        addresses = List.copyOf(addresses);
        if (addresses.isEmpty()) {
            throw new InvalidValueException("target", "(none)", "at least one HOST:PORT");
        }
    }

    public static Targets of(InetSocketAddress address) {
        return new Targets(List.of(address));
    }

    /**
     * Parses {@code HOST:PORT[-PORT]} items separated by commas; an IPv6 host goes in brackets ({@code [::1]:7000}).
     * A name that does not resolve yet (a Service before DNS has it) stays unresolved until connect.
     */
    public static Targets parse(String text) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            int colon = item.lastIndexOf(':');
            if (colon <= 0) {
                throw new InvalidValueException("target", item, "HOST:PORT or HOST:PORT-PORT");
            }
            String host = item.substring(0, colon).replace("[", "").replace("]", "");
            String ports = item.substring(colon + 1);
            int dash = ports.indexOf('-');
            int first = port(item, dash < 0 ? ports : ports.substring(0, dash));
            int last = dash < 0 ? first : port(item, ports.substring(dash + 1));
            if (last < first) {
                throw new InvalidValueException("target", item, "a port range low-high");
            }
            if (addresses.size() + (last - first + 1) > MAX) {
                throw new InvalidValueException("target", text, "at most " + MAX + " HOST:PORT in all");
            }
            for (int port = first; port <= last; port++) {
                addresses.add(new InetSocketAddress(host, port));
            }
        }
        return new Targets(addresses);
    }

    private static int port(String item, String port) {
        try {
            int p = Integer.parseInt(port);
            if (p >= 1 && p <= 65_535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // Said below, naming the whole item.
        }
        throw new InvalidValueException("target", item, "a port 1..65535");
    }

    public int size() {
        return addresses.size();
    }

    public InetSocketAddress first() {
        return addresses.get(0);
    }

    /** The server of connection {@code id}: round-robin. */
    public InetSocketAddress forConnection(long id) {
        return addresses.get((int) (id % addresses.size()));
    }

    /** As written: consecutive ports of one host folded back into a range. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < addresses.size(); i++) {
            InetSocketAddress start = addresses.get(i);
            int end = i;
            while (end + 1 < addresses.size() && sameHost(start, addresses.get(end + 1))
                    && addresses.get(end + 1).getPort() == addresses.get(end).getPort() + 1) {
                end++;
            }
            if (text.length() > 0) {
                text.append(',');
            }
            String host = start.getHostString();
            text.append(host.indexOf(':') >= 0 ? "[" + host + "]" : host).append(':').append(start.getPort());
            if (end > i) {
                text.append('-').append(addresses.get(end).getPort());
            }
            i = end;
        }
        return text.toString();
    }

    private static boolean sameHost(InetSocketAddress a, InetSocketAddress b) {
        return a.getHostString().equals(b.getHostString());
    }
}
