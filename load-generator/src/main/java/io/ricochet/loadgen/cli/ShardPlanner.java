package io.ricochet.loadgen.cli;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Splits one parsed scenario into per-worker command lines, each option as the {@link Shard} rule declared beside it
 * says: totals (connections, concurrency, RPC clients, pairs, requests, cycles and warmup calls) are split by weight
 * with the remainder going to the largest fractions, rates are split in proportion, each worker gets its own seed,
 * a list of source addresses is dealt out round-robin (at least one per worker, so no two workers draw on one
 * address's ephemeral ports), the targets go to every worker whole with each worker's first connection numbered where
 * the previous worker's share ends (so the targets are dealt evenly over the run), files are made
 * absolute, and options that only the controller acts on (target, report, JSON output, scrape) are dropped. Every
 * other option is passed on as given.
 */
final class ShardPlanner {
    /** Seeds are spaced this far apart so workers' bodies never coincide. */
    static final long SEED_STRIDE = 1_000_003;

    private ShardPlanner() {
    }

    /**
     * One command line per worker for {@code scenario} (the parsed scenario subcommand), each against
     * {@code target} (the --target list, {@code HOST:PORT[-PORT],...}).
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
        long[] connections = null;
        OptionSpec offset = null;
        for (OptionSpec option : scenario.commandSpec().options()) {
            String name = option.longestName();
            Shard.Rule rule = rule(option);
            if (option.usageHelp() || option.versionHelp() || rule == Shard.Rule.CONTROLLER_ONLY) {
                continue;
            }
            switch (rule) {
                case SPLIT_TOTAL -> {
                    long total = ((Number) option.getValue()).longValue();
                    if (total > 0) {
                        long[] parts = split(total, weights, name);
                        for (int i = 0; i < workers; i++) {
                            shards.get(i).add(name + "=" + parts[i]);
                        }
                        if (name.equals("--connections") || name.equals("--concurrency") || name.equals("--clients")
                                || name.equals("--pairs")) {
                            connections = parts;
                        }
                    } else {
                        copy(scenario, option, shards);
                    }
                }
                case SPLIT_RATE -> {
                    double total = ((Number) option.getValue()).doubleValue();
                    double sum = sum(weights);
                    for (int i = 0; i < workers; i++) {
                        shards.get(i).add(name + "=" + String.format(Locale.ROOT, "%.6f/s", total * weights[i] / sum));
                    }
                }
                case SEED -> {
                    long seed = ((Number) option.getValue()).longValue();
                    for (int i = 0; i < workers; i++) {
                        shards.get(i).add(name + "=" + (seed + i * SEED_STRIDE));
                    }
                }
                case DEAL_ADDRESSES -> {
                    if (scenario.hasMatchedOption(name)) {
                        String[] addresses = ((Converters.SourceAddresses) option.getValue()).addresses().stream()
                                .map(java.net.InetAddress::getHostAddress).toArray(String[]::new);
                        if (addresses.length < workers) {
                            // Shared, two workers would draw on one address's ephemeral ports unawares.
                            throw new IllegalArgumentException(name.substring(2) + ": " + addresses.length
                                    + " address(es) over " + workers + " workers would have workers share a source "
                                    + "address (expected: at least one per worker)");
                        }
                        for (int i = 0; i < workers; i++) {
                            shards.get(i).add(name + "=" + every(addresses, i, workers));
                        }
                    }
                }
                case CONNECTION_OFFSET -> offset = option;
                case ABSOLUTE_FILE -> {
                    if (scenario.hasMatchedOption(name)) {
                        for (String given : scenario.matchedOption(name).originalStringValues()) {
                            String file = java.nio.file.Path.of(given).toAbsolutePath().toString();
                            for (List<String> shard : shards) {
                                shard.add(name + "=" + file);
                            }
                        }
                    }
                }
                case WORKER_INDEX -> {
                    for (int i = 0; i < workers; i++) {
                        shards.get(i).add(name + "=" + i);
                    }
                }
                default -> copy(scenario, option, shards);
            }
        }
        if (offset != null && connections != null) {
            long first = ((Number) offset.getValue()).longValue();
            for (int i = 0; i < workers; i++) {
                shards.get(i).add(offset.longestName() + "=" + first);
                first += connections[i];
            }
        }
        return shards;
    }

    /** The rule declared on the option's field; {@link Shard.Rule#COPY} for an option without one. */
    static Shard.Rule rule(OptionSpec option) {
        Shard shard = option.userObject() instanceof Field field ? field.getAnnotation(Shard.class) : null;
        return shard == null ? Shard.Rule.COPY : shard.value();
    }

    /** The option as the user gave it, to every worker; nothing if it was not given (each worker has the default). */
    private static void copy(ParseResult scenario, OptionSpec option, List<List<String>> shards) {
        String name = option.longestName();
        if (scenario.hasMatchedOption(name)) {
            for (String value : scenario.matchedOption(name).originalStringValues()) {
                for (List<String> shard : shards) {
                    shard.add(option.arity().max == 0 ? name : name + "=" + value);
                }
            }
        }
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
