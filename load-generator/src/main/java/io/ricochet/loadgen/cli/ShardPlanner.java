package io.ricochet.loadgen.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Splits one parsed scenario into per-worker command lines. Totals (connections, concurrency, RPC
 * clients, pairs, requests, cycles and warmup calls) are split by weight with the remainder going to the largest fractions, rates are split in proportion,
 * each worker gets its own seed, and a list of source addresses is dealt out round-robin when there
 * are at least as many as workers. Options that only the controller acts on (target, report, JSON
 * output, scrape) are replaced or dropped; every other option is passed on as given.
 */
final class ShardPlanner {
    /** Integer totals split by weight. */
    static final Set<String> TOTALS = Set.of("--connections", "--concurrency", "--clients", "--pairs", "--requests",
            "--cycles", "--warmup");
    /** Rates split in proportion. */
    static final Set<String> RATES = Set.of("--rate", "--connect-rate");
    /** Options of the controller, not of the workers. */
    static final Set<String> CONTROLLER_ONLY = Set.of("--report", "--json", "--scrape", "--target");
    /** File options: made absolute, so a worker started elsewhere reads the same file. */
    static final Set<String> FILES = Set.of("--tls-ca", "--client-cert", "--client-key");
    /** Seeds are spaced this far apart so workers' bodies never coincide. */
    static final long SEED_STRIDE = 1_000_003;

    private ShardPlanner() {
    }

    /**
     * One command line per worker for {@code scenario} (the parsed scenario subcommand), each against
     * {@code target} ({@code HOST:PORT}).
     */
    static List<List<String>> plan(ParseResult scenario, double[] weights, String target) {
        int workers = weights.length;
        List<List<String>> shards = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            List<String> args = new ArrayList<>();
            args.add(scenario.commandSpec().name());
            args.add("--target=" + target);
            shards.add(args);
        }
        for (OptionSpec option : scenario.commandSpec().options()) {
            String name = option.longestName();
            if (option.usageHelp() || option.versionHelp() || CONTROLLER_ONLY.contains(name)) {
                continue;
            }
            // --warmup is a duration for the echo-style commands (copied) and a call count for rpc (split).
            if (TOTALS.contains(name) && option.getValue() instanceof Number total && total.longValue() > 0) {
                long[] parts = split(total.longValue(), weights, name);
                for (int i = 0; i < workers; i++) {
                    shards.get(i).add(name + "=" + parts[i]);
                }
            } else if (RATES.contains(name)) {
                double total = ((Number) option.getValue()).doubleValue();
                double sum = sum(weights);
                for (int i = 0; i < workers; i++) {
                    shards.get(i).add(name + "=" + String.format(Locale.ROOT, "%.6f/s", total * weights[i] / sum));
                }
            } else if (name.equals("--seed")) {
                long seed = ((Number) option.getValue()).longValue();
                for (int i = 0; i < workers; i++) {
                    shards.get(i).add("--seed=" + (seed + i * SEED_STRIDE));
                }
            } else if (name.equals("--source-addresses") && scenario.hasMatchedOption(name)) {
                String[] addresses = ((Converters.SourceAddresses) option.getValue()).addresses().stream()
                        .map(java.net.InetAddress::getHostAddress).toArray(String[]::new);
                for (int i = 0; i < workers; i++) {
                    shards.get(i).add(name + "=" + (addresses.length >= workers ? every(addresses, i, workers)
                            : String.join(",", addresses)));
                }
            } else if (FILES.contains(name) && scenario.hasMatchedOption(name)) {
                String file = java.nio.file.Path.of(scenario.matchedOption(name).originalStringValues().get(0))
                        .toAbsolutePath().toString();
                for (List<String> shard : shards) {
                    shard.add(name + "=" + file);
                }
            } else if (scenario.hasMatchedOption(name)) {
                for (String value : scenario.matchedOption(name).originalStringValues()) {
                    for (List<String> shard : shards) {
                        shard.add(option.arity().max == 0 ? name : name + "=" + value);
                    }
                }
            }
        }
        return shards;
    }

    /** {@code total} in parts proportional to {@code weights}, summing exactly to {@code total}. */
    static long[] split(long total, double[] weights, String name) {
        double sum = sum(weights);
        long[] parts = new long[weights.length];
        double[] remainders = new double[weights.length];
        long given = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = total * weights[i] / sum;
            parts[i] = (long) Math.floor(exact);
            remainders[i] = exact - parts[i];
            given += parts[i];
        }
        for (long left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < weights.length; i++) {
                if (remainders[i] > remainders[best]) {
                    best = i;
                }
            }
            parts[best]++;
            remainders[best] = -1;
        }
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] == 0) {
                throw new IllegalArgumentException(name.substring(2) + ": " + total + " over " + weights.length
                        + " workers leaves worker " + i + " none (expected: at least one each)");
            }
        }
        return parts;
    }

    private static String every(String[] items, int start, int stride) {
        List<String> picked = new ArrayList<>();
        for (int i = start; i < items.length; i += stride) {
            picked.add(items[i]);
        }
        return String.join(",", picked);
    }

    private static double sum(double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        return sum;
    }
}
