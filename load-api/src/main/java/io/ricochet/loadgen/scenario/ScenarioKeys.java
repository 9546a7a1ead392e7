package io.ricochet.loadgen.scenario;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Every key of a scenario file, in the order {@link ScenarioFiles} writes them, with the commands it applies to. A key
 * another command takes is refused by name ({@code pipeline: does not apply to rpc}), so a file never holds a setting
 * that its run would silently ignore.
 *
 * <pre>{@code
 * ScenarioKeys.flag(Command.ECHO, "connect_rate");   // "--connect-rate": what a message names on the command line
 * }</pre>
 */
public final class ScenarioKeys {
    private static final Set<Command> ALL = EnumSet.allOf(Command.class);
    private static final Set<Command> FRAMED = EnumSet.of(Command.ECHO, Command.RR, Command.CRR, Command.MASSIVE,
            Command.RAMP);
    private static final Set<Command> HELD = EnumSet.of(Command.ECHO, Command.RR, Command.CRR, Command.MASSIVE);
    private static final Set<Command> CALLS = EnumSet.of(Command.RPC, Command.REGISTER);
    private static final Set<Command> WORKERS = EnumSet.of(Command.ECHO, Command.RR, Command.CRR, Command.MASSIVE,
            Command.RPC, Command.REGISTER);

    /** Key → the commands that take it. Sections (workload, tls, noise, ramp, sweep, udp_stream) hold dotted keys. */
    private static final Map<String, Set<Command>> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("version", ALL);
        KEYS.put("command", ALL);
        KEYS.put("target", ALL);
        KEYS.put("transport", FRAMED);
        KEYS.put("length_field", union(FRAMED, EnumSet.of(Command.UDP_STREAM)));
        KEYS.put("connections", union(CALLS, EnumSet.of(Command.ECHO, Command.CRR, Command.MASSIVE, Command.SWEEP,
                Command.RAMP)));
        KEYS.put("connect_rate", EnumSet.of(Command.ECHO, Command.MASSIVE));
        KEYS.put("per_connection_rate", EnumSet.of(Command.ECHO, Command.MASSIVE));
        KEYS.put("pipeline", EnumSet.of(Command.ECHO, Command.SWEEP, Command.RAMP));
        KEYS.put("in_flight", EnumSet.of(Command.RPC));
        KEYS.put("rate", EnumSet.of(Command.ECHO, Command.RPC, Command.UDP_STREAM));
        KEYS.put("stages", EnumSet.of(Command.ECHO, Command.MASSIVE));
        KEYS.put("source_addresses", FRAMED);
        KEYS.put("duration", union(FRAMED, EnumSet.of(Command.UDP_STREAM)));
        KEYS.put("warmup", FRAMED);
        KEYS.put("warmup_requests", CALLS);
        KEYS.put("requests", union(HELD, CALLS));
        KEYS.put("timeout", union(FRAMED, union(CALLS, EnumSet.of(Command.SWEEP))));
        KEYS.put("interval", ALL);
        KEYS.put("seed", ALL);
        KEYS.put("key_bits", ALL);
        KEYS.put("workload.name", union(FRAMED, EnumSet.of(Command.RPC)));
        KEYS.put("workload.jars", union(FRAMED, EnumSet.of(Command.RPC)));
        KEYS.put("workload.params", union(FRAMED, EnumSet.of(Command.RPC)));
        KEYS.put("workload.size", union(FRAMED, union(CALLS, EnumSet.of(Command.UDP_STREAM))));
        KEYS.put("workload.payload", FRAMED);
        KEYS.put("workload.expect", union(FRAMED, EnumSet.of(Command.RPC)));
        for (String rpc : new String[] {"proto", "method", "request_type", "response_type", "data", "expect_status"}) {
            KEYS.put("workload." + rpc, EnumSet.of(Command.RPC));
        }
        for (String tls : new String[] {"enabled", "ca", "insecure", "client_cert", "client_key", "provider"}) {
            KEYS.put("tls." + tls, ALL);
        }
        KEYS.put("tls.resume", EnumSet.of(Command.CRR));
        KEYS.put("tls.early_data", EnumSet.of(Command.CRR));
        KEYS.put("noise.server_key", ALL);
        KEYS.put("noise.mode", ALL);
        KEYS.put("io", ALL);
        KEYS.put("io_threads", ALL);
        KEYS.put("server_io_threads", ALL);
        KEYS.put("thresholds", ALL);
        KEYS.put("max_error_rate", ALL);
        KEYS.put("report", ALL);
        KEYS.put("json", ALL);
        KEYS.put("scrape", ALL);
        KEYS.put("metrics_port", ALL);
        KEYS.put("metrics_host", ALL);
        for (String ramp : new String[] {"slo", "start_rate", "factor", "max_rate", "refine", "warmup_step"}) {
            KEYS.put("ramp." + ramp, EnumSet.of(Command.RAMP));
        }
        for (String sweep : new String[] {"requests_per_step", "max_size", "counts", "count_size", "sizes"}) {
            KEYS.put("sweep." + sweep, EnumSet.of(Command.SWEEP));
        }
        for (String udp : new String[] {"sockets", "linger", "search", "max_loss", "precision", "max_trials"}) {
            KEYS.put("udp_stream." + udp, EnumSet.of(Command.UDP_STREAM));
        }
        KEYS.put("worker", WORKERS);
        KEYS.put("first_connection", WORKERS);
    }

    /** Keys whose flag is not their last part in kebab case. */
    private static final Map<String, String> OTHER_FLAGS = Map.ofEntries(
            Map.entry("warmup_requests", "--warmup"),
            Map.entry("thresholds", "--threshold"),
            Map.entry("workload.name", "--workload"),
            Map.entry("workload.jars", "--workload-jar"),
            Map.entry("workload.params", "--workload-param"),
            Map.entry("tls.enabled", "--tls"),
            Map.entry("tls.ca", "--tls-ca"),
            Map.entry("tls.provider", "--tls-provider"),
            Map.entry("tls.resume", "--tls-resume"),
            Map.entry("noise.server_key", "--noise-key"),
            Map.entry("noise.mode", "--encrypt"),
            Map.entry("sweep.sizes", "--no-sizes"),
            Map.entry("worker", "--worker-index"));

    /**
     * The command line's flag for {@code key} on {@code command}: its last part in kebab case ({@code connect_rate}
     * is {@code --connect-rate}), but for the few named otherwise and the connections each command names its own way
     * (crr's {@code --concurrency}, rpc's {@code --clients}, register's {@code --pairs}).
     */
    public static String flag(Command command, String key) {
        if (key.equals("connections")) {
            return switch (command) {
                case CRR -> "--concurrency";
                case RPC -> "--clients";
                case REGISTER -> "--pairs";
                default -> "--connections";
            };
        }
        if (key.equals("requests") && command == Command.REGISTER) {
            return "--cycles";
        }
        String other = OTHER_FLAGS.get(key);
        return other != null ? other : "--" + key.substring(key.lastIndexOf('.') + 1).replace('_', '-');
    }

    /** The sections, each a mapping of the keys under it. */
    static final Set<String> SECTIONS = Set.of("workload", "tls", "noise", "ramp", "sweep", "udp_stream");

    private ScenarioKeys() {
    }

    /** Every key, dotted, in the order a file is written. */
    public static Set<String> all() {
        return KEYS.keySet();
    }

    /** Whether {@code key} is a key of the format at all. */
    public static boolean known(String key) {
        return KEYS.containsKey(key) || SECTIONS.contains(key);
    }

    /** Whether {@code command} takes {@code key} (a section: any key under it). */
    public static boolean appliesTo(String key, Command command) {
        if (SECTIONS.contains(key)) {
            return KEYS.entrySet().stream().anyMatch(e -> e.getKey().startsWith(key + ".")
                    && e.getValue().contains(command));
        }
        Set<Command> commands = KEYS.get(key);
        return commands != null && commands.contains(command);
    }

    /** The commands that take {@code key}, for a message. */
    public static Set<Command> commandsOf(String key) {
        Set<Command> commands = EnumSet.noneOf(Command.class);
        KEYS.forEach((k, v) -> {
            if (k.equals(key) || k.startsWith(key + ".")) {
                commands.addAll(v);
            }
        });
        return commands;
    }

    /** The known key closest to {@code unknown} in spelling, or null when none is close. */
    static String closest(String unknown) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String key : KEYS.keySet()) {
            int d = distance(unknown, key);
            if (d < bestDistance) {
                best = key;
                bestDistance = d;
            }
        }
        return bestDistance <= Math.max(2, unknown.length() / 4) ? best : null;
    }

    /** Levenshtein's edit distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static Set<Command> union(Set<Command> a, Set<Command> b) {
        Set<Command> all = EnumSet.copyOf(a);
        all.addAll(b);
        return all;
    }
}
